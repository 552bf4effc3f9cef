/**
 * What a page of the web host shows when the host would not let it in: why, and how to open
 * Airlock again. Nothing of the app is shown, and nothing is tried again by itself: only a new
 * link from the terminal running Airlock opens it.
 */
import './load-failed.css';
import { refusalText, type RefusalReason } from '../../../preload/shared/web-wire-plain';

/** The refusal screen. */
export function LinkRefused({ reason }: { reason: RefusalReason }) {
  return (
    <main className="load-failed" aria-labelledby="link-refused-title">
      <div className="load-failed-card">
        <div role="alert">
          <h1 id="link-refused-title">This link cannot open Airlock</h1>
          <p className="load-failed-error">{refusalText(reason)}</p>
        </div>
        <p>
          To open Airlock here, go to the terminal where it runs (<code>npm run web</code>) and
          press Enter: it prints a new link. Open that link in this browser. If Airlock no longer
          runs there, start it again and open the link it prints.
        </p>
      </div>
    </main>
  );
}
