/**
 * Registrable domains where people commonly sign in or pay, for the look-alike check.
 *
 * A URL whose registrable domain looks like one of these (same UTS #39 skeleton) but is not it
 * gets a `lookalike` warning: `раураӏ.com` for paypal.com, `rnicrosoft.com` for microsoft.com.
 * Each entry is a registrable domain under the public suffix list with private domains
 * (`google.com`, not `accounts.google.com`), in ASCII; a test keeps it so and checks that no
 * two entries look alike. Written by hand from widely used identity providers, mail, social
 * networks, developer and cloud consoles, payment providers, banks and brokers, and shops: a
 * few hundred names, not a ranking of the web.
 */
export const WELL_KNOWN_DOMAINS: readonly string[] = [
  // Identity, mail and the large platforms.
  ...['google.com', 'youtube.com', 'gmail.com', 'android.com', 'chrome.com', 'microsoft.com'],
  ...['microsoftonline.com', 'live.com', 'outlook.com', 'office.com', 'office365.com'],
  ...['azure.com', 'bing.com', 'xbox.com', 'skype.com', 'sharepoint.com', 'windows.com'],
  ...['apple.com', 'icloud.com', 'me.com', 'amazon.com', 'amazon.co.uk', 'amazon.de'],
  ...['amazon.fr', 'amazon.co.jp', 'amazon.in', 'amazon.ca', 'amazon.com.au', 'amazon.es'],
  ...['amazon.it', 'amazon.com.br', 'facebook.com', 'instagram.com', 'whatsapp.com', 'meta.com'],
  ...['messenger.com', 'x.com', 'twitter.com', 'linkedin.com', 'tiktok.com', 'snapchat.com'],
  ...['pinterest.com', 'reddit.com', 'discord.com', 'telegram.org', 'signal.org', 'yahoo.com'],
  ...['aol.com', 'proton.me', 'protonmail.com', 'fastmail.com', 'zoho.com', 'yandex.ru'],
  ...['mail.ru', 'vk.com', 'baidu.com', 'qq.com', 'wechat.com', 'naver.com', 'kakao.com'],
  ...['line.me', 'samsung.com', 'adobe.com', 'okta.com', 'oktapreview.com', 'auth0.com'],
  ...['onelogin.com', 'pingidentity.com', 'duo.com', 'duosecurity.com', 'jumpcloud.com'],
  ...['login.gov', 'id.me', '1password.com', 'lastpass.com', 'bitwarden.com', 'dashlane.com'],
  ...['keepersecurity.com', 'authy.com'],
  // Work and collaboration.
  ...['slack.com', 'atlassian.com', 'zoom.us', 'webex.com', 'dropbox.com', 'box.com'],
  ...['notion.so', 'figma.com', 'canva.com', 'airtable.com', 'asana.com', 'trello.com'],
  ...['monday.com', 'clickup.com', 'miro.com', 'salesforce.com', 'workday.com'],
  ...['servicenow.com', 'zendesk.com', 'hubspot.com', 'intercom.com', 'docusign.com'],
  ...['docusign.net', 'hellosign.com', 'calendly.com', 'loom.com', 'evernote.com'],
  ...['mailchimp.com', 'sap.com', 'oracle.com', 'ibm.com', 'intuit.com', 'quickbooks.com'],
  ...['xero.com', 'gusto.com', 'adp.com', 'rippling.com', 'bamboohr.com', 'deel.com'],
  // Developers and cloud consoles.
  ...['github.com', 'gitlab.com', 'bitbucket.org', 'codeberg.org', 'sourceforge.net'],
  ...['npmjs.com', 'pypi.org', 'rubygems.org', 'crates.io', 'nuget.org', 'docker.com'],
  ...['jetbrains.com', 'visualstudio.com', 'stackoverflow.com', 'cloudflare.com', 'fastly.com'],
  ...['akamai.com', 'digitalocean.com', 'heroku.com', 'vercel.com', 'netlify.com'],
  ...['render.com', 'fly.io', 'railway.app', 'supabase.com', 'firebase.com', 'mongodb.com'],
  ...['alibabacloud.com', 'aliyun.com', 'tencentcloud.com', 'ovhcloud.com', 'ovh.com'],
  ...['hetzner.com', 'linode.com', 'vultr.com', 'scaleway.com', 'backblaze.com'],
  ...['circleci.com', 'sentry.io', 'datadoghq.com', 'newrelic.com', 'grafana.com'],
  ...['pagerduty.com', 'postman.com', 'hashicorp.com', 'terraform.io', 'snowflake.com'],
  ...['databricks.com', 'confluent.io', 'elastic.co', 'redis.io', 'planetscale.com'],
  ...['neon.tech', 'twilio.com', 'sendgrid.com', 'godaddy.com', 'namecheap.com'],
  ...['squarespace.com', 'wix.com', 'wordpress.com', 'shopify.com', 'replit.com'],
  ...['codesandbox.io', 'stackblitz.com', 'expo.dev', 'mozilla.org', 'firefox.com'],
  ...['cursor.com', 'openai.com', 'chatgpt.com', 'anthropic.com', 'claude.ai'],
  ...['huggingface.co', 'mistral.ai', 'cohere.com', 'perplexity.ai', 'deepmind.com'],
  // Payments, wallets and exchanges.
  ...['paypal.com', 'paypal.me', 'venmo.com', 'stripe.com', 'squareup.com', 'cash.app'],
  ...['wise.com', 'revolut.com', 'klarna.com', 'affirm.com', 'afterpay.com', 'adyen.com'],
  ...['braintreegateway.com', 'braintreepayments.com', 'checkout.com', 'worldpay.com'],
  ...['authorize.net', 'paddle.com', 'lemonsqueezy.com', 'chargebee.com', 'recurly.com'],
  ...['gocardless.com', 'mollie.com', 'razorpay.com', 'paytm.com', 'phonepe.com'],
  ...['mercadopago.com', 'mercadolibre.com', 'payoneer.com', 'skrill.com', 'neteller.com'],
  ...['paysafecard.com', 'alipay.com', 'zellepay.com', 'visa.com', 'mastercard.com'],
  ...['americanexpress.com', 'discover.com', 'coinbase.com', 'binance.com', 'kraken.com'],
  ...['gemini.com', 'crypto.com', 'blockchain.com', 'metamask.io', 'ledger.com', 'trezor.io'],
  ...['opensea.io', 'robinhood.com', 'etrade.com', 'schwab.com', 'fidelity.com'],
  ...['vanguard.com', 'interactivebrokers.com', 'webull.com', 'etoro.com', 'plaid.com'],
  ...['bill.com', 'expensify.com', 'brex.com', 'ramp.com', 'mercury.com'],
  // Banks.
  ...['chase.com', 'bankofamerica.com', 'wellsfargo.com', 'citi.com', 'citibank.com'],
  ...['usbank.com', 'pnc.com', 'capitalone.com', 'truist.com', 'tdbank.com', 'ally.com'],
  ...['sofi.com', 'chime.com', 'goldmansachs.com', 'marcus.com', 'morganstanley.com'],
  ...['navyfederal.org', 'usaa.com', 'hsbc.com', 'hsbc.co.uk', 'barclays.co.uk'],
  ...['barclays.com', 'lloydsbank.com', 'natwest.com', 'santander.com', 'santander.co.uk'],
  ...['halifax.co.uk', 'nationwide.co.uk', 'monzo.com', 'starlingbank.com', 'bnpparibas.com'],
  ...['societegenerale.com', 'credit-agricole.fr', 'deutsche-bank.de', 'db.com'],
  ...['commerzbank.de', 'sparkasse.de', 'ing.com', 'ing.nl', 'ing.de', 'rabobank.nl'],
  ...['abnamro.nl', 'ubs.com', 'credit-suisse.com', 'unicredit.it', 'intesasanpaolo.com'],
  ...['bbva.com', 'bbva.es', 'caixabank.es', 'nordea.com', 'danskebank.com', 'seb.se'],
  ...['handelsbanken.se', 'swedbank.se', 'n26.com', 'bunq.com', 'rbc.com', 'royalbank.com'],
  ...['td.com', 'scotiabank.com', 'bmo.com', 'cibc.com', 'commbank.com.au', 'westpac.com.au'],
  ...['anz.com', 'nab.com.au', 'hdfcbank.com', 'icicibank.com', 'onlinesbi.sbi', 'sbi.co.in'],
  ...['axisbank.com', 'kotak.com', 'mufg.jp', 'smbc.co.jp', 'mizuhobank.co.jp', 'dbs.com'],
  ...['ocbc.com', 'uob.com.sg', 'standardchartered.com', 'itau.com.br', 'bradesco.com.br'],
  ...['nubank.com.br', 'bb.com.br', 'caixa.gov.br', 'banorte.com', 'bancolombia.com'],
  // Shops, travel, media and games.
  ...['ebay.com', 'etsy.com', 'walmart.com', 'target.com', 'bestbuy.com', 'costco.com'],
  ...['ikea.com', 'aliexpress.com', 'alibaba.com', 'taobao.com', 'rakuten.co.jp', 'temu.com'],
  ...['shein.com', 'booking.com', 'airbnb.com', 'expedia.com', 'uber.com', 'lyft.com'],
  ...['doordash.com', 'instacart.com', 'netflix.com', 'spotify.com', 'hulu.com'],
  ...['disneyplus.com', 'twitch.tv', 'patreon.com', 'substack.com', 'medium.com'],
  ...['steampowered.com', 'steamcommunity.com', 'epicgames.com', 'playstation.com'],
  ...['nintendo.com', 'ea.com', 'roblox.com', 'blizzard.com', 'battle.net', 'riotgames.com'],
];
