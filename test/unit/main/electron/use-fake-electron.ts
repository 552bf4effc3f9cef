/**
 * The fake Electron for a test file, in one import.
 *
 * Imported first among a test file's imports (before anything that imports `electron`), it puts
 * `fake-electron.ts` in place of `electron` for the whole file.
 */
import { vi } from 'vitest';

vi.mock('electron', () => import('./fake-electron.js'));
