#!/usr/bin/env node
/**
 * Builds the household web app (web/) into web/dist, which the inventory API serves at `/`, and
 * its second entry, the engine's console, which the engine serves at /status:
 *
 *   web/dist/index.html             the page, naming the hashed bundles (served no-cache)
 *   web/dist/assets/*-<hash>.js|css  the bundles (served immutable for a year)
 *   web/dist/sw.js                  the service worker, with the shell's file list baked in
 *   web/dist/manifest.webmanifest   the PWA manifest (English), manifest.de.webmanifest (German);
 *                                   icons/ the PNG icons drawn here
 *   web/dist/index.de.html          the page with the German title, for Accept-Language: de
 *   web/dist/status/status.js|css   the second entry: the engine's console, served at /status on
 *                                   HTTP_PORT (src/adapters/http/engine/web-ui/web-ui-router.ts)
 *   *.gz, *.br                      precompressed copies of the text files, served by Accept-Encoding
 *
 * Uses esbuild and preact, both runtime dependencies, so a production install
 * (npm ci --omit=dev) builds the app too; nothing is fetched but npm packages.
 *
 *   node scripts/build-web.mjs                 build into web/dist
 *   node scripts/build-web.mjs --out-dir <dir> build somewhere else (tests)
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlibConstants, deflateSync, gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const webDir = path.join(root, "web");

/** Theme colours shared by the manifest, the icons and the page's theme-color. */
const THEME = { background: [0x1f, 0x4e, 0x79], foreground: [0xff, 0xff, 0xff], hex: "#1f4e79" };

// ---- PNG icons: a snowflake-ish mark drawn into pixels, encoded with zlib (no image library).

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Whether the point (x, y) in the unit square [-1, 1]² is part of the mark. */
function inMark(x, y, padding) {
  const r = Math.hypot(x, y) / (1 - padding);
  if (r > 0.78) return false;
  if (r < 0.16) return true;
  // Six arms: the distance from the nearest arm's axis must be small.
  const angle = Math.atan2(y, x);
  const sector = Math.PI / 3;
  const nearest = Math.round(angle / sector) * sector;
  const offAxis = Math.abs(Math.sin(angle - nearest)) * r;
  if (offAxis < 0.07) return true;
  // A chevron on each arm, two thirds of the way out.
  const along = Math.cos(angle - nearest) * r;
  return along > 0.45 && along < 0.62 && Math.abs(offAxis - (along - 0.45) * 1.4) < 0.06;
}

function iconPng(size, padding) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const u = ((x + 0.5) / size) * 2 - 1;
      const v = ((y + 0.5) / size) * 2 - 1;
      const colour = inMark(u, v, padding) ? THEME.foreground : THEME.background;
      const offset = y * (size * 4 + 1) + 1 + x * 4;
      raw[offset] = colour[0];
      raw[offset + 1] = colour[1];
      raw[offset + 2] = colour[2];
      raw[offset + 3] = 255;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

// ---- The build.

/** How both entries (the family app and the engine console) are bundled: the same Preact code. */
const PAGE_BUNDLE = {
  bundle: true,
  format: "esm",
  minify: true,
  sourcemap: false,
  target: ["es2020"],
  jsx: "automatic",
  jsxImportSource: "preact",
};

export async function buildWebApp(outDir = path.join(webDir, "dist")) {
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(path.join(outDir, "icons"), { recursive: true });

  const result = await build({
    entryPoints: { app: path.join(webDir, "src", "main.tsx") },
    outdir: path.join(outDir, "assets"),
    ...PAGE_BUNDLE,
    splitting: true,
    entryNames: "[name]-[hash]",
    chunkNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    metafile: true,
    logLevel: "warning",
    legalComments: "none",
    // The barcode reader's WebAssembly (zxing-wasm) is copied into assets/ under a hashed name
    // and imported as its URL, so it comes from Hearth itself and never from a CDN.
    loader: { ".wasm": "file" },
    publicPath: "/assets",
  });

  const outputs = Object.keys(result.metafile.outputs).map((file) => path.relative(outDir, path.resolve(root, file)));
  const entry = Object.entries(result.metafile.outputs).find(([, output]) => output.entryPoint);
  if (!entry) throw new Error("esbuild produced no entry bundle");
  const script = path.relative(outDir, path.resolve(root, entry[0])).split(path.sep).join("/");
  const style = entry[1].cssBundle
    ? path.relative(outDir, path.resolve(root, entry[1].cssBundle)).split(path.sep).join("/")
    : null;

  const firstLoad = firstLoadBytes(result.metafile, entry[0], entry[1].cssBundle);
  if (firstLoad > FIRST_LOAD_BUDGET) {
    throw new Error(
      `the first load is ${firstLoad} bytes gzipped, over the budget of ${FIRST_LOAD_BUDGET}: load more of the app lazily (import())`,
    );
  }

  const icons = [
    { file: "icons/icon-192.png", size: 192, padding: 0, purpose: "any" },
    { file: "icons/icon-512.png", size: 512, padding: 0, purpose: "any" },
    { file: "icons/maskable-512.png", size: 512, padding: 0.2, purpose: "maskable" },
    { file: "icons/apple-touch-icon.png", size: 180, padding: 0.1, purpose: null },
  ];
  for (const icon of icons) writeFileSync(path.join(outDir, icon.file), iconPng(icon.size, icon.padding));

  const manifest = {
    lang: "en",
    name: LOCALES.en.name,
    short_name: LOCALES.en.shortName,
    description: LOCALES.en.description,
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: THEME.hex,
    theme_color: THEME.hex,
    icons: icons
      .filter((icon) => icon.purpose)
      .map((icon) => ({
        src: `/${icon.file}`,
        sizes: `${icon.size}x${icon.size}`,
        type: "image/png",
        purpose: icon.purpose,
      })),
  };
  writeFileSync(path.join(outDir, "manifest.webmanifest"), `${JSON.stringify(manifest, null, 2)}\n`);
  const german = { ...manifest, lang: "de", name: LOCALES.de.name, short_name: LOCALES.de.shortName };
  german.description = LOCALES.de.description;
  writeFileSync(path.join(outDir, "manifest.de.webmanifest"), `${JSON.stringify(german, null, 2)}\n`);

  const template = readFileSync(path.join(webDir, "index.html"), "utf8");
  const page = template
    .replaceAll("%THEME%", THEME.hex)
    .replace("%STYLE%", style ? `<link rel="stylesheet" href="/${style}">` : "")
    .replace("%SCRIPT%", `<script type="module" src="/${script}"></script>`);
  writeFileSync(path.join(outDir, "index.html"), page);
  // The title a German browser shows (and an installed app's window) before the app has started.
  const germanPage = page
    .replace('<html lang="en">', '<html lang="de">')
    .replace(/<title>[^<]*<\/title>/, `<title>${LOCALES.de.name}</title>`);
  writeFileSync(path.join(outDir, "index.de.html"), germanPage);

  // The shell the service worker keeps: the page, every bundle (lazy chunks too), the icons;
  // not the barcode reader (its chunk and its 1 MB of WebAssembly), which a phone with a
  // BarcodeDetector never needs: it is fetched when a scan first needs it; nor the House pages,
  // which only admins open, online (house-*.js and what only they import).
  const decoder = barcodeDecoderFiles(result.metafile, outDir);
  const houseOnly = houseOnlyOutputs(result.metafile, entry[0]);
  const shell = [
    "/",
    "/manifest.webmanifest",
    ...icons.map((icon) => `/${icon.file}`),
    ...outputs
      .filter((file, index) => !decoder.has(file) && !houseOnly.has(Object.keys(result.metafile.outputs)[index]))
      .map((file) => `/${file.split(path.sep).join("/")}`),
  ];
  const version = createHash("sha256").update(page).update(JSON.stringify(shell)).digest("hex").slice(0, 12);
  await build({
    entryPoints: [path.join(webDir, "src", "sw.ts")],
    outfile: path.join(outDir, "sw.js"),
    bundle: true,
    minify: true,
    format: "iife",
    target: ["es2020"],
    define: { __SHELL_FILES__: JSON.stringify(shell), __SHELL_VERSION__: JSON.stringify(version) },
    logLevel: "warning",
  });
  const status = await buildStatusEntry(outDir);
  precompress(outDir);
  return { outDir, script, style, shell, version, firstLoad, status };
}

/**
 * The second entry: the engine's console at /status (web/src/status/main.tsx), the House pages
 * against the engine's own /api. One file each of script and style under status/, named without
 * a hash: the engine's web UI router reads them at start and adds the content hash to their URLs.
 * Not part of the family app's shell (the service worker never caches it).
 */
async function buildStatusEntry(outDir) {
  const statusDir = path.join(outDir, "status");
  await build({
    entryPoints: { status: path.join(webDir, "src", "status", "main.tsx") },
    outdir: statusDir,
    ...PAGE_BUNDLE,
    entryNames: "[name]",
    logLevel: "warning",
    legalComments: "none",
  });
  return { script: "status/status.js", style: "status/status.css" };
}

/**
 * What a family member's phone downloads before the app shows anything, gzipped: the entry
 * bundle, the chunks it imports statically (not those behind import(), like the House pages),
 * and its CSS. Issue 25 sets the bound.
 */
export const FIRST_LOAD_BUDGET = 150 * 1024;

/** The House chunks and what only they import (reachable from the entry only through them). */
function houseOnlyOutputs(metafile, entryFile) {
  const isHouse = (file) => /(^|\/)house-[^/]*\.js$/.test(file);
  const reach = (starts, enter) => {
    const seen = new Set();
    const pending = [...starts];
    while (pending.length > 0) {
      const file = pending.pop();
      if (seen.has(file) || !enter(file)) continue;
      seen.add(file);
      for (const imported of metafile.outputs[file]?.imports ?? []) pending.push(imported.path);
    }
    return seen;
  };
  const withoutHouse = reach([entryFile], (file) => !isHouse(file));
  const house = reach(Object.keys(metafile.outputs).filter(isHouse), () => true);
  return new Set([...house].filter((file) => !withoutHouse.has(file)));
}

function firstLoadBytes(metafile, entryFile, cssFile) {
  const seen = new Set();
  const pending = [entryFile];
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? []) {
      if (imported.kind === "import-statement" && !imported.external) pending.push(imported.path);
    }
  }
  if (cssFile) seen.add(cssFile);
  let total = 0;
  for (const file of seen) total += gzipSync(readFileSync(path.resolve(root, file)), { level: 9 }).length;
  return total;
}

/**
 * The outputs that only the WebAssembly barcode reader needs: the chunk of barcode-polyfill.ts,
 * the chunks only it imports, and the .wasm file. Checked here, so that a change that pulls the
 * reader into the first load fails the build instead of growing every phone's first visit.
 */
function barcodeDecoderFiles(metafile, outDir) {
  const relative = (file) => path.relative(outDir, path.resolve(root, file));
  const outputs = Object.entries(metafile.outputs);
  const entry = outputs.find(([, output]) => output.entryPoint);
  const polyfill = outputs.find(([, output]) =>
    Object.keys(output.inputs).some((input) => input.endsWith("barcode-polyfill.ts")),
  );
  if (!polyfill) throw new Error("the barcode reader (web/src/barcode-polyfill.ts) was not bundled");
  if (polyfill[0] === entry?.[0]) throw new Error("the barcode reader was bundled into the app's first load");
  const eager = new Set([
    entry[0],
    ...entry[1].imports.filter((imported) => imported.kind === "import-statement").map((imported) => imported.path),
  ]);
  const files = new Set([relative(polyfill[0])]);
  for (const imported of polyfill[1].imports)
    if (!eager.has(imported.path) && imported.kind !== "dynamic-import") files.add(relative(imported.path));
  for (const [file] of outputs) if (file.endsWith(".wasm")) files.add(relative(file));
  return files;
}

/** The installed app's names per language (the app's own "app.title" strings). */
const LOCALES = {
  en: { name: "Hearth freezer", shortName: "Freezer", description: "What is in the household's freezers" },
  de: {
    name: "Hearth Gefriertruhe",
    shortName: "Gefriertruhe",
    description: "Was in den Gefriergeräten des Haushalts ist",
  },
};

const COMPRESSIBLE = /\.(js|css|html|webmanifest|json|svg|txt|wasm)$/;

/**
 * Writes `<file>.gz` and `<file>.br` beside every text file, at the highest levels: done once
 * here, a request costs nothing but picking the file (web-app-router.ts). A copy that would not
 * be smaller is left out.
 */
function precompress(dir) {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const content = readFileSync(file);
    const gzip = gzipSync(content, { level: 9 });
    const brotli = brotliCompressSync(content, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    if (gzip.length < content.length) writeFileSync(`${file}.gz`, gzip);
    if (brotli.length < content.length) writeFileSync(`${file}.br`, brotli);
  }
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf("--out-dir");
  const outDir = outIndex >= 0 ? path.resolve(args[outIndex + 1] ?? "") : undefined;
  buildWebApp(outDir).then(
    (built) =>
      console.log(`hearth: web app built in ${path.relative(root, built.outDir)} (${built.shell.length} shell files).`),
    (error) => {
      console.error(`hearth: the web app build failed: ${error.message}`);
      process.exit(1);
    },
  );
}
