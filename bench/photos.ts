/**
 * `npm run bench:photos`: what item photos cost the server process.
 *
 * Starts Hearth (`bin/hearth.js start`, the build users run: `npm run build` first) as a child
 * process with Node's default flags on embedded PGlite (or PostgreSQL with BENCH_DATABASE_URL), generates photos with sharp and
 * uploads each kind BENCH_PHOTO_UPLOADS times at once (default 6: a family adding photos
 * together, or one account sending many), each kind to a fresh server. Prints per kind: the
 * answers, the time, and the process's RSS before, at its peak (sampled every 20 ms) and
 * after; the peak's rise is read against the baseline of the same run, a 12-megapixel baseline
 * JPEG, what a phone sends.
 *
 * The kinds are the largest each limit lets through, and one past it: a 48-megapixel baseline
 * JPEG and a 49-megapixel PNG (under the 50-megapixel limit), a 24-megapixel progressive JPEG
 * and interlaced PNG (under the limit for images decoded whole), and a 48-megapixel progressive
 * JPEG. BENCH_HEARTH_ROOT runs another checkout with the same photos, for before/after figures;
 * BENCH_PHOTO_KINDS (comma-separated names) narrows the run; `-- --node 22,24` runs it on those
 * Node versions (on Node 22.15+ and 24, `hearth start` caps glibc's malloc pools, which Node 20
 * cannot: see docs/performance.md). Linux only (reads /proc).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import sharp from "sharp";
import { runOnRequestedNodes } from "./other-nodes.js";
import {
  call,
  freezerWithCompartment,
  freshServer,
  household,
  peakRss,
  type ServerOptions,
  sleep,
  statusOf,
  stopServer,
} from "./hearth-child.js";

const ROOT = path.resolve(process.env.BENCH_HEARTH_ROOT ?? path.join(import.meta.dirname, ".."));
const UPLOADS = Number(process.env.BENCH_PHOTO_UPLOADS ?? 6);
const SERVER: ServerOptions = { root: ROOT, databaseUrl: process.env.BENCH_DATABASE_URL, entry: "dist" };
const MB = 1024 * 1024;

interface Kind {
  name: string;
  contentType: string;
  make(): Promise<Buffer>;
}

/** A picture with detail in every row, so that no encoder makes it trivially small. */
function picture(width: number, height: number) {
  const band = 64;
  const raw = Buffer.alloc(width * band * 3);
  for (let y = 0; y < band; y++)
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      raw[at] = x & 255;
      raw[at + 1] = y * 4;
      raw[at + 2] = (x >> 4) & 255;
    }
  return sharp(raw, { raw: { width, height: band, channels: 3 } }).resize(width, height, { kernel: "nearest" });
}

const KINDS: Kind[] = [
  {
    name: "phone JPEG, 12 MP (baseline)",
    contentType: "image/jpeg",
    make: () => picture(4000, 3000).jpeg().toBuffer(),
  },
  { name: "JPEG, 48 MP", contentType: "image/jpeg", make: () => picture(8000, 6000).jpeg().toBuffer() },
  {
    name: "PNG, 49 MP",
    contentType: "image/png",
    make: () => picture(7000, 7000).png({ compressionLevel: 9 }).toBuffer(),
  },
  {
    name: "progressive JPEG, 24 MP",
    contentType: "image/jpeg",
    make: () => picture(4800, 5000).jpeg({ progressive: true }).toBuffer(),
  },
  {
    name: "interlaced PNG, 24 MP",
    contentType: "image/png",
    make: () => picture(4800, 5000).png({ progressive: true, compressionLevel: 9 }).toBuffer(),
  },
  {
    name: "progressive JPEG, 48 MP",
    contentType: "image/jpeg",
    make: () => picture(8000, 6000).jpeg({ progressive: true }).toBuffer(),
  },
];

const mb = (bytes: number) => `${(bytes / MB).toFixed(0)}`;

async function measure(scratch: string, kind: Kind, photo: Buffer) {
  const server = await freshServer(scratch, SERVER);
  try {
    const owner = await household(server.api);
    const { freezerId, compartmentId } = await freezerWithCompartment(server.api, owner);
    const items: string[] = [];
    for (let index = 0; index < UPLOADS; index++) {
      const item = (await call("POST", `${server.api}/households/${owner.hid}/items`, owner.token, {
        name: `Item ${index}`,
        quantity: 1,
        freezerId,
        compartmentId,
      })) as { id: string };
      items.push(item.id);
    }
    const pid = server.child.pid as number;
    const started = performance.now();
    const { result, before, peak } = await peakRss(pid, () =>
      Promise.all(
        items.map(async (id) => {
          const response = await fetch(`${server.api}/households/${owner.hid}/items/${id}/photo`, {
            method: "PUT",
            headers: { authorization: `Bearer ${owner.token}`, "content-type": kind.contentType },
            body: new Uint8Array(photo),
          });
          await response.arrayBuffer();
          return response.status;
        }),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    await sleep(2000);
    const after = statusOf(pid, "VmRSS");
    return { statuses: result, seconds, before, peak, after };
  } finally {
    await stopServer(server);
  }
}

async function main(): Promise<void> {
  const only = process.env.BENCH_PHOTO_KINDS?.split(",").map((name) => name.trim());
  const kinds = KINDS.filter((kind, index) => index === 0 || !only || only.some((name) => kind.name.includes(name)));
  const scratch = await mkdtemp(path.join(tmpdir(), "hearth-bench-photos-"));
  process.stdout.write(
    `Hearth at ${ROOT}, Node ${process.version} with its default flags, ${SERVER.databaseUrl ? "PostgreSQL" : "PGlite"}, ${UPLOADS} uploads at once\n\n`,
  );
  process.stdout.write(
    "| photo | file | answers | time s | RSS before MB | peak MB | rise MB | rise / baseline | RSS 2 s after MB |\n|---|---:|---|---:|---:|---:|---:|---:|---:|\n",
  );
  try {
    let baseline = 0;
    for (const kind of kinds) {
      const photo = await kind.make();
      const figures = await measure(scratch, kind, photo);
      const rise = figures.peak - figures.before;
      if (baseline === 0) baseline = Math.max(rise, 1);
      const answers = [...new Set(figures.statuses)].map((status) => `${status}`).join(", ");
      process.stdout.write(
        `| ${kind.name} | ${(photo.length / MB).toFixed(1)} MB | ${answers} | ${figures.seconds.toFixed(1)} | ${mb(figures.before)} | ${mb(figures.peak)} | ${mb(rise)} | ${(rise / baseline).toFixed(1)} | ${mb(figures.after)} |\n`,
      );
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

runOnRequestedNodes("bench/photos.ts");
await main();
