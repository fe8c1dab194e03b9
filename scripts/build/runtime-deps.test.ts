import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { packageNameOf, runtimePackages } from './runtime-deps';

describe('packageNameOf', () => {
  it('names the package of a bare specifier, nothing for paths and built-ins', () => {
    expect(packageNameOf('pg')).toBe('pg');
    expect(packageNameOf('pg/lib/client')).toBe('pg');
    expect(packageNameOf('@fastify/otel')).toBe('@fastify/otel');
    expect(packageNameOf('@opentelemetry/api/build/x.js')).toBe('@opentelemetry/api');
    expect(packageNameOf('./local')).toBeUndefined();
    expect(packageNameOf('/abs/file.js')).toBeUndefined();
    expect(packageNameOf('node:fs')).toBeUndefined();
  });
});

describe('runtimePackages (the npm packages an image ships)', () => {
  let root: string;
  const pkg = (dir: string, manifest: Record<string, unknown>) => {
    mkdirSync(join(root, dir), { recursive: true });
    writeFileSync(join(root, dir, 'package.json'), JSON.stringify(manifest));
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'runtime-deps-'));
    // a: needs b (hoisted) and c; c needs its own b (nested); d only a dev dependency of a
    pkg('node_modules/a', {
      name: 'a',
      dependencies: { b: '1', c: '1' },
      devDependencies: { d: '1' },
      optionalDependencies: { 'other-platform': '1' },
    });
    pkg('node_modules/b', { name: 'b' });
    pkg('node_modules/c', { name: 'c', dependencies: { b: '2' } });
    pkg('node_modules/c/node_modules/b', { name: 'b' });
    pkg('node_modules/d', { name: 'd' });
    // a workspace package: npm links it into node_modules
    pkg('packages/kit', { name: '@wayfarer/kit', dependencies: { b: '1' } });
    mkdirSync(join(root, 'node_modules/@wayfarer'), { recursive: true });
    symlinkSync(join(root, 'packages/kit'), join(root, 'node_modules/@wayfarer/kit'));
    mkdirSync(join(root, 'services/app/src'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const from = (name: string) => new Map([[name, join(root, 'services/app/src')]]);

  it('takes a package and its dependencies, nested copies inside their outer folder', () => {
    expect(runtimePackages(from('a'), root)).toEqual([
      'node_modules/a',
      'node_modules/b',
      'node_modules/c', // brings node_modules/c/node_modules/b with it
    ]);
  });

  it('leaves out dev dependencies, missing optional ones and workspace links', () => {
    const dirs = runtimePackages(
      new Map([...from('a'), ['@wayfarer/kit', join(root, 'services/app/src')]]),
      root,
    );
    expect(dirs).not.toContain('node_modules/d');
    expect(dirs.some((d) => d.includes('other-platform'))).toBe(false);
    expect(dirs.some((d) => d.includes('@wayfarer'))).toBe(false);
  });

  it('refuses an import or a required dependency that is not installed', () => {
    expect(() => runtimePackages(from('nowhere'), root)).toThrow(/nowhere .* is not installed/);
    rmSync(join(root, 'node_modules/b'), { recursive: true });
    expect(() => runtimePackages(from('a'), root)).toThrow(
      /b, a dependency of node_modules\/a, is not installed/,
    );
  });

  it('finds a package as Node would, from the importing folder upwards', () => {
    pkg('services/app/node_modules/b', { name: 'b' });
    expect(runtimePackages(from('b'), root)).toEqual(['services/app/node_modules/b']);
  });
});
