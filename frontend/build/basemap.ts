import type { Plugin } from 'vite';
import { lightenTopology, type Topology } from '../src/map/keyless/lighten';

/**
 * Vite plugin: the world-atlas topology the keyless map fetches (`countries-50m`, imported with
 * `?url`) is emitted lightened (`src/map/keyless/lighten.ts`: a coarser grid and simplified
 * arcs, about a pixel of error at the highest zoom), ~40% fewer bytes on every first load.
 */
export function lightBasemap(): Plugin {
  return {
    name: 'wayfarer-light-basemap',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type !== 'asset' || !/countries-50m-[\w-]+\.json$/.test(file.fileName)) continue;
        const source =
          typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source);
        file.source = JSON.stringify(lightenTopology(JSON.parse(source) as Topology));
      }
    },
  };
}
