import { chmodSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Writes a file that holds a secret, readable by its owner only (0600) whether or not it existed:
 * `writeFileSync(path, text, { mode })` applies the mode only when it creates the file, so an
 * existing 0644 file kept its mode with the secret in it. The text goes to a new 0600 file beside
 * `path`, renamed over it (readers never see a partial file; a symlink at `path` is replaced,
 * not followed).
 * @throws the write or rename error (the temporary file is removed).
 */
export function writePrivateFile(path: string, text: string): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`);
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, 0o600); // the umask may have removed bits, never added: this is a no-op safety net
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}
