/**
 * The envelope a contract call's answer travels in over Electron IPC.
 *
 * `ipcMain.handle` would turn a thrown error into "Error invoking remote method …", so the
 * main process answers with this envelope instead and the preload unwraps it: the value
 * (validated against the contract there), or the user-facing message as an Error.
 */
import { z } from 'zod';

/** An answer over IPC: the call's value, or the message to show the user. */
export const IpcReply = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }).strict(),
  z.object({ ok: z.literal(false), error: z.string().max(10_000) }).strict(),
]);
/** See {@link IpcReply}. */
export type IpcReply = z.infer<typeof IpcReply>;
