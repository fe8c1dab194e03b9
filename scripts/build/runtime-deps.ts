import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** The package name of a bare import specifier (`pg/lib/x` -> `pg`, `@a/b/c` -> `@a/b`). */
export function packageNameOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) {
    return undefined;
  }
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  return name || undefined;
}

interface Manifest {
  name?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifestOf = (dir: string): Manifest =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/**
 * Where Node finds package `name` from a file in `fromDir`: the first `node_modules/<name>`
 * walking up, no further than `root` (the repository). Undefined when it is not installed.
 */
export function findPackageDir(name: string, fromDir: string, root: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root) return undefined;
    const parent = dirname(dir);
    if (parent === dir || relative(root, parent).startsWith('..')) return undefined;
    dir = parent;
  }
}

/**
 * The installed packages a process needs at run time: `roots` (package name -> the folder it
 * is imported from) and, transitively, their dependencies, optional dependencies and peer
 * dependencies that are installed (npm installs only the optional ones of this platform:
 * sharp's libvips, esbuild-free). Returns each package folder relative to `root`
 * (`node_modules/pg`, `node_modules/a/node_modules/b`), sorted; a folder inside another in the
 * list is left out (copying the outer one brings it). A root that is not installed is an error;
 * two versions of one package imported by the bundled code would be too (the bundle flattens
 * them into one `node_modules`), so the caller passes one folder per name.
 */
export function runtimePackages(roots: Map<string, string>, root: string): string[] {
  const found = new Set<string>();
  const queue: string[] = [];
  const add = (dir: string) => {
    if (found.has(dir)) return;
    found.add(dir);
    queue.push(dir);
  };
  for (const [name, fromDir] of roots) {
    const dir = findPackageDir(name, fromDir, root);
    if (!dir)
      throw new Error(`${name} (imported from ${relative(root, fromDir)}) is not installed`);
    add(dir);
  }
  while (queue.length > 0) {
    const dir = queue.shift()!;
    const manifest = manifestOf(dir);
    const required = Object.keys(manifest.dependencies ?? {});
    const optional = [
      ...Object.keys(manifest.optionalDependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ];
    // a workspace package (a symlink into the repo) is bundled, never shipped
    for (const name of required) {
      const dep = findPackageDir(name, dir, root);
      if (!dep) {
        // npm leaves out an optional dependency of another platform, and so may a package
        // that lists one both ways; anything else missing is a broken install
        if (manifest.optionalDependencies?.[name] === undefined) {
          throw new Error(`${name}, a dependency of ${relative(root, dir)}, is not installed`);
        }
        continue;
      }
      add(dep);
    }
    for (const name of optional) {
      const dep = findPackageDir(name, dir, root);
      if (dep) add(dep);
    }
  }
  const dirs = [...found]
    .map((dir) => {
      // workspace links resolve into the repo: they are bundled, never shipped
      if (realpathSync(dir) !== dir && !realpathSync(dir).includes(`${sep}node_modules${sep}`)) {
        return undefined;
      }
      return relative(root, dir);
    })
    .filter((dir): dir is string => dir !== undefined)
    .sort();
  return dirs.filter((dir) => !dirs.some((outer) => dir !== outer && dir.startsWith(`${outer}/`)));
}
