/** Waits for a call that must fail with a JSON-RPC error (the SDK's `RequestError`), and returns it. */
import * as acp from '@agentclientprotocol/sdk';
import { expect } from 'vitest';

export async function requestFailure(promise: Promise<unknown>): Promise<acp.RequestError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(acp.RequestError);
  return error as acp.RequestError;
}
