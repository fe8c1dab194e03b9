import { open } from 'node:fs/promises';
import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';
import { zipBuffer } from '@wayfarer/test-kit/zip';

/**
 * Archives for the import (`POST /api/import`): hostile ones made by hand (the well-formed ones
 * are test-kit's `zipBuffer` and `zipFile`, yazl), and Polarsteps exports of given trips.
 */

/**
 * Renames an entry in a small ZIP by patching its name where it is written (local header and
 * central directory): yazl refuses to write `../` names, an attacker's tool does not. `from`
 * and `to` must have the same length.
 */
export function renameEntry(zip: Buffer, from: string, to: string): Buffer {
  if (from.length !== to.length) throw new Error('same length only');
  const out = Buffer.from(zip);
  const needle = Buffer.from(from);
  for (let at = out.indexOf(needle); at >= 0; at = out.indexOf(needle, at + 1)) {
    out.write(to, at);
  }
  return out;
}

/**
 * A ZIP bomb written to `path`: one entry `name` of `bytes` zero bytes, deflated as it streams
 * (level 1: fast, ~230 to 1), with the crc from node's zlib. Written by hand (a local header,
 * the data, a data descriptor, the central directory) since yazl's JavaScript crc would take
 * seconds per GB. `bytes` must stay under 4 GiB (no ZIP64).
 */
export async function zeroBomb(path: string, name: string, bytes: number): Promise<void> {
  const file = await open(path, 'w');
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(0x0008, 6); // sizes in the data descriptor
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt16LE(nameBytes.length, 26);
  await file.write(Buffer.concat([local, nameBytes]));
  let compressed = 0;
  let crc = 0;
  const chunk = Buffer.alloc(1 << 20);
  const deflate = createDeflateRaw({ level: 1 });
  const written = (async () => {
    for await (const data of deflate as AsyncIterable<Buffer>) {
      compressed += data.length;
      await file.write(data);
    }
  })();
  for (let left = bytes; left > 0; left -= chunk.length) {
    const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
    crc = crc32(part, crc);
    if (!deflate.write(part)) await once(deflate, 'drain');
  }
  deflate.end();
  await written;
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(crc >>> 0, 4);
  descriptor.writeUInt32LE(compressed, 8);
  descriptor.writeUInt32LE(bytes, 12);
  await file.write(descriptor);
  const centralAt = 30 + nameBytes.length + compressed + 16;
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(0x0008, 8);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(compressed, 20);
  central.writeUInt32LE(bytes, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(46 + nameBytes.length, 12);
  end.writeUInt32LE(centralAt, 16);
  await file.write(Buffer.concat([central, nameBytes, end]));
  await file.close();
}

/** One trip of a Polarsteps export (`polarstepsZip`): its steps, each with its photos. */
export interface PolarstepsTripSpec {
  name: string;
  steps: { name: string; lat: number; lon: number; photos: Buffer[] }[];
}

/**
 * A Polarsteps data export as its "Download my data" lays it out (`trip/<name>_<id>/trip.json`,
 * each step's photos in `<step>_<stepId>/photos/`), written by test-kit's `zipBuffer` (yazl),
 * photos stored. Steps a day apart from 1 June 2024; ids from `firstId`.
 */
export async function polarstepsZip(trips: PolarstepsTripSpec[], firstId = 1000): Promise<Buffer> {
  const entries: { name: string; data: Buffer; compress?: boolean }[] = [];
  let id = firstId;
  for (const trip of trips) {
    const dir = `trip/${trip.name}_${id++}`;
    const steps = trip.steps.map((step, i) => {
      const stepId = id++;
      step.photos.forEach((photo, p) =>
        entries.push({
          name: `${dir}/step${i}_${stepId}/photos/p${p}.jpg`,
          data: photo,
          compress: false,
        }),
      );
      return {
        id: stepId,
        name: step.name,
        start_time: 1717200000 + i * 86400,
        end_time: 1717200000 + i * 86400 + 3600,
        location: { lat: step.lat, lon: step.lon, name: step.name },
      };
    });
    entries.push({
      name: `${dir}/trip.json`,
      data: Buffer.from(JSON.stringify({ name: trip.name, all_steps: steps })),
    });
  }
  return zipBuffer(entries);
}
