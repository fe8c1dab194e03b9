import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The layering rules (eslint.layering.js, .dependency-cruiser.cjs) still fail on a violation:
 * each rule is fed a file that breaks it, at the path where the rule applies, and the same
 * import at a path where it is allowed passes. The repo itself passing is `npm run lint`'s job.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: root });

async function restrictedImports(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? [])
    .filter((m) => /no-restricted-imports$/.test(m.ruleId ?? ''))
    .map((m) => m.message);
}

describe('domain/ is pure (eslint.layering.js rule 1)', () => {
  const domainFile = 'services/trips/src/domain/layering-fixture.ts';

  it.each([
    ["import { Pool } from 'pg';", 'store, broker, HTTP framework or I/O'],
    ["import type { ObjectId } from 'mongodb';", 'store, broker, HTTP framework or I/O'],
    ["import { readFileSync } from 'node:fs';", 'store, broker, HTTP framework or I/O'],
    ["import Fastify from 'fastify';", 'store, broker, HTTP framework or I/O'],
    ["import { HttpError } from '@wayfarer/service-kit';", 'throws no HTTP error'],
    ["import { putObject } from '@wayfarer/storage/objects';", 'stores no objects'],
    ["import { tripsStore } from '../store/trips';", 'is the bottom layer'],
  ])('refuses %s in a domain module', async (line, reason) => {
    const messages = await restrictedImports(domainFile, `${line}\nexport const x = 1;\n`);
    expect(messages.join('\n')).toContain(reason);
  });

  it('lets a store module import the driver, and a domain module contracts and its own rules', async () => {
    expect(
      await restrictedImports(
        'services/trips/src/store/layering-fixture.ts',
        "import { Pool } from 'pg';\nexport const p = Pool;\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        domainFile,
        "import { TRIP_LIMITS } from '@wayfarer/contracts';\nimport { rule } from './rules';\nexport const x = [TRIP_LIMITS, rule];\n",
      ),
    ).toEqual([]);
  });
});

describe('workspaces are imported through their package exports (rule 2)', () => {
  it('refuses a relative path out of a workspace and a deep @wayfarer/x/src import', async () => {
    const fromService = await restrictedImports(
      'services/social/src/routes/layering-fixture.ts',
      "import { x } from '../../../trips/src/domain/trip';\nexport const y = x;\n",
    );
    expect(fromService.join('\n')).toContain('by its package name');
    const deep = await restrictedImports(
      'e2e/tests/layering-fixture.ts',
      "import { x } from '@wayfarer/gateway/src/config';\nexport const y = x;\n",
    );
    expect(deep.join('\n')).toContain('by its package name');
    const intoWorkspace = await restrictedImports(
      'bench/trips/layering-fixture.ts',
      "import { x } from '../../services/trips/src/app';\nexport const y = x;\n",
    );
    expect(intoWorkspace.join('\n')).toContain('by its package name');
  });

  it('allows the package entry and relative imports inside a workspace', async () => {
    expect(
      await restrictedImports(
        'e2e/tests/layering-fixture.ts',
        "import { GatewayEnv } from '@wayfarer/gateway';\nimport { api } from '../support/api';\nexport const y = [GatewayEnv, api];\n",
      ),
    ).toEqual([]);
    expect(
      await restrictedImports(
        'services/social/src/routes/layering-fixture.ts',
        "import { x } from '../domain/friends';\nexport const y = x;\n",
      ),
    ).toEqual([]);
  });
});

describe("a service's folders import one way (rule 3)", () => {
  const src = 'services/trips/src';
  const file = (folder: string) => `${src}/${folder}/layering-fixture.ts`;
  const code = (line: string) => `${line}\nexport const y = 1;\n`;

  it.each([
    ['routes', "import { TripsStore } from '../store/trips';", 'import no store/ value'],
    ['routes/edits', "import { TripsStore } from '../../store/trips';", 'import no store/ value'],
    ['store', "import { createTrip } from '../usecases/create-trip';", 'below the use cases'],
    ['store', "import { register } from '../routes/trips';", 'below the use cases'],
    ['store', "import { start } from '../events/consumers/users';", 'below the use cases'],
    ['store', "import { onJoin } from '../socket/handlers';", 'below the use cases'],
    ['events/consumers', "import { TripsStore } from '../../store/trips';", 'calls a use case'],
    ['events/consumers', "import { register } from '../../routes/trips';", 'imports no routes/'],
    ['events', "import { TripsStore } from '../store/trips';", 'calls a use case'],
    ['usecases', "import { register } from '../routes/trips';", 'import neither'],
    ['usecases', "import { CONSUMERS } from '../events/consumers';", 'import neither'],
  ])('refuses in %s/: %s', async (folder, line, reason) => {
    // events/consumers.ts is a consumers module too (one file of consumers, before the folder)
    const path = folder === 'events' ? `${src}/events/consumers.ts` : file(folder);
    const messages = await restrictedImports(path, code(line));
    expect(messages.join('\n')).toContain(reason);
  });

  it.each([
    ['routes', "import type { TripsStore } from '../store/trips';"],
    ['routes', "import { type TripsStore } from '../store/trips';"],
    ['routes', "import { createTrip } from '../usecases/create-trip';"],
    ['store', "import { tripDoc } from '../domain/trip';"],
    ['events/consumers', "import type { TripsStore } from '../../store/trips';"],
    ['events/consumers', "import { eraseUser } from '../../usecases/erase-user';"],
    ['usecases', "import { TripsStore } from '../store/trips';"],
    ['usecases', "import { tripCreated } from '../events/outbox';"],
  ])('allows in %s/: %s', async (folder, line) => {
    expect(await restrictedImports(file(folder), code(line))).toEqual([]);
  });
});

describe('no import cycles, type-only imports included (.dependency-cruiser.cjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wayfarer-cycles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function cyclesIn(files: Record<string, string>): Promise<number> {
    const src = join(dir, `case-${Object.keys(files).join('-').replace(/\W/g, '')}`);
    mkdirSync(src, { recursive: true });
    for (const [name, code] of Object.entries(files)) writeFileSync(join(src, name), code);
    const { createRequire } = await import('node:module');
    const config = createRequire(import.meta.url)(join(root, '.dependency-cruiser.cjs'));
    const result = await cruise([src], {
      ruleSet: { forbidden: config.forbidden },
      tsPreCompilationDeps: true,
      validate: true,
    });
    const output = result.output as { summary: { violations: { rule: { name: string } }[] } };
    return output.summary.violations.filter((v) => v.rule.name === 'no-circular').length;
  }

  it('finds a cycle made of a type-only import back to the module that registers a route', async () => {
    const cycles = await cyclesIn({
      'app.ts':
        "import { route } from './route';\nexport interface Ctx { n: number }\nexport const app = route;\n",
      'route.ts': "import type { Ctx } from './app';\nexport const route = (c: Ctx) => c.n;\n",
    });
    expect(cycles).toBeGreaterThan(0);
  });

  it('passes the same modules once the shared type has its own module', async () => {
    const cycles = await cyclesIn({
      'context.ts': 'export interface Ctx { n: number }\n',
      'app2.ts': "import { route } from './route2';\nexport const app = route;\n",
      'route2.ts': "import type { Ctx } from './context';\nexport const route = (c: Ctx) => c.n;\n",
    });
    expect(cycles).toBe(0);
  });
});
