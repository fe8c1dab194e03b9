import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Static checks of deploy/local (no server is started here).
const local = join(dirname(fileURLToPath(import.meta.url)), '../local');

describe('deploy/local', () => {
  it.each(['up', 'status', 'down'])('%s is an executable bash script that parses', (verb) => {
    const file = join(local, verb);
    accessSync(file, constants.X_OK);
    expect(readFileSync(file, 'utf8')).toMatch(/^#!\/usr\/bin\/env bash\n/);
    expect(readFileSync(file, 'utf8')).toContain('set -euo pipefail');
    execFileSync('bash', ['-n', file]);
  });

  it('rejects an unknown component before doing anything', () => {
    const r = spawnSync(join(local, 'up'), ['nosuch'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('unknown component "nosuch"');
  });

  it('uses the agreed default ports', () => {
    const common = readFileSync(join(local, 'lib/common.sh'), 'utf8');
    for (const [name, port] of [
      ['WAYFARER_PG_PORT', 55432],
      ['WAYFARER_REDIS_PORT', 56379],
      ['WAYFARER_KAFKA_PORT', 59092],
      ['WAYFARER_KAFKA_CONTROLLER_PORT', 59093],
      ['WAYFARER_MINIO_PORT', 59000],
      ['WAYFARER_MINIO_CONSOLE_PORT', 59001],
      ['WAYFARER_MONGO_PORT', 57017],
    ] as const) {
      expect(common).toContain(`\${${name}:-${port}}`);
    }
  });
});
