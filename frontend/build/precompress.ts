import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** What the build pre-compresses: text assets (scripts, styles, HTML, SVG, JSON and GeoJSON). */
export const PRECOMPRESSED_EXTENSIONS = /\.(?:js|mjs|css|html|svg|json|geojson|txt|xml|map)$/i;

/** Files smaller than this are left alone: a compressed twin would save next to nothing. */
export const PRECOMPRESS_MIN_BYTES = 256;

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to every text
 * asset of `dir`, each only when it is smaller than the file. The gateway serves the twin the
 * client's Accept-Encoding takes (@fastify/static `preCompressed`). Returns what it wrote.
 */
export async function precompressDir(
  dir: string,
): Promise<Array<{ file: string; bytes: number; br?: number; gz?: number }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile() && PRECOMPRESSED_EXTENSIONS.test(e.name))
    .map((e) => join(e.parentPath, e.name));
  return Promise.all(
    files.map(async (file) => {
      const { size } = await stat(file);
      if (size < PRECOMPRESS_MIN_BYTES) return { file, bytes: size };
      const data = await readFile(file);
      const [br, gzipped] = await Promise.all([
        brotli(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: size,
          },
        }),
        gz(data, { level: 9 }),
      ]);
      const written: { file: string; bytes: number; br?: number; gz?: number } = {
        file,
        bytes: size,
      };
      if (br.length < size) {
        await writeFile(`${file}.br`, br);
        written.br = br.length;
      }
      if (gzipped.length < size) {
        await writeFile(`${file}.gz`, gzipped);
        written.gz = gzipped.length;
      }
      return written;
    }),
  );
}

/** Vite plugin: pre-compresses the whole output directory once the build has written it. */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'wayfarer-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = join(config.root, config.build.outDir);
      const written = await precompressDir(outDir);
      const sum = (key: 'bytes' | 'br') =>
        written.reduce((total, w) => total + (w[key] ?? w.bytes), 0);
      config.logger.info(
        `precompressed ${written.filter((w) => w.br !== undefined).length} files: ` +
          `${(sum('bytes') / 1024).toFixed(0)} kB -> ${(sum('br') / 1024).toFixed(0)} kB brotli`,
      );
    },
  };
}
