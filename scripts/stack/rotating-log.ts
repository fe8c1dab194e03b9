import { closeSync, existsSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';

/** A process's log file is rotated past this size, ... */
export const LOG_MAX_BYTES = 10 * 1024 * 1024;
/** ... keeping this many files: `<name>.log` (current), `<name>.log.1`, `<name>.log.2`. */
export const LOG_FILES = 3;

/**
 * The stack runner's log file of one process, rotated by size: once `<file>` would pass
 * `maxBytes`, `<file>.1` becomes `<file>.2` (the oldest dropped), `<file>` becomes `<file>.1`, and
 * writing goes on in a new `<file>`. Rotation happens between chunks (a chunk is never split), so a
 * file ends at most one chunk above `maxBytes`. Appends to an existing file (its size counts).
 */
export function rotatingLog(file: string, maxBytes = LOG_MAX_BYTES, files = LOG_FILES): Writable {
  let fd = openSync(file, 'a');
  let size = statSync(file).size;
  const rotate = () => {
    closeSync(fd);
    rmSync(`${file}.${files - 1}`, { force: true });
    for (let i = files - 2; i >= 1; i--) {
      if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
    }
    renameSync(file, `${file}.1`);
    fd = openSync(file, 'a');
    size = 0;
  };
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      try {
        if (size > 0 && size + chunk.length > maxBytes) rotate();
        writeSync(fd, chunk);
        size += chunk.length;
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
    final(callback) {
      closeSync(fd);
      callback();
    },
  });
}
