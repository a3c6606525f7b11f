import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, get, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { expect } from "chai";
import { buildWorld } from "../../contract/inventory/http/inventory-http-world.js";

/** A raw GET: the bytes as they travel, not decoded. */
function raw(base: string, pathname: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get(`${base}${pathname}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    }).on("error", reject);
  });
}

describe("the web app's assets: compressed, and the page and manifest in the browser's language", function () {
  this.timeout(120_000);
  let directory: string;
  let server: Server;
  let base: string;
  let script: string;

  before(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "hearth-web-build-"));
    execFileSync(process.execPath, [path.resolve("scripts/build-web.mjs"), "--out-dir", directory], { stdio: "pipe" });
    const page = readFileSync(path.join(directory, "index.html"), "utf8");
    script = /src="\/(assets\/[^"]+\.js)"/.exec(page)?.[1] ?? "";
    const world = await buildWorld({ env: { WEB_APP_DIR: directory } });
    server = createServer(world.app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await rm(directory, { recursive: true, force: true });
  });

  it("serves JavaScript and CSS brotli- or gzip-compressed by Accept-Encoding, with Vary", async () => {
    const original = readFileSync(path.join(directory, script));
    const brotli = await raw(base, `/${script}`, { "Accept-Encoding": "gzip, deflate, br" });
    expect(brotli.status).to.equal(200);
    expect(brotli.headers["content-encoding"]).to.equal("br");
    expect(brotli.headers.vary).to.include("Accept-Encoding");
    expect(brotli.headers["content-type"]).to.match(/javascript/);
    expect(brotli.headers["cache-control"]).to.equal("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(brotli.body).equals(original)).to.equal(true);
    expect(brotli.body.length).to.be.below(original.length * 0.4);

    const gzip = await raw(base, `/${script}`, { "Accept-Encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).to.equal("gzip");
    expect(gunzipSync(gzip.body).equals(original)).to.equal(true);

    const plain = await raw(base, `/${script}`, { "Accept-Encoding": "identity" });
    expect(plain.headers["content-encoding"]).to.equal(undefined);
    expect(plain.headers.vary).to.include("Accept-Encoding");
    expect(plain.body.equals(original)).to.equal(true);

    const css = readdirSync(path.join(directory, "assets")).find((file) => file.endsWith(".css"));
    const style = await raw(base, `/assets/${css}`, { "Accept-Encoding": "br;q=0.5, gzip;q=1" });
    expect(style.headers["content-encoding"]).to.equal("gzip");
    expect(style.headers["content-type"]).to.match(/text\/css/);
  });

  it("serves the manifest and the page in German for a German browser, in English otherwise", async () => {
    const german = await raw(base, "/manifest.webmanifest", { "Accept-Language": "de-DE,de;q=0.9,en;q=0.8" });
    expect(german.headers["content-type"]).to.match(/application\/manifest\+json/);
    expect(german.headers.vary).to.include("Accept-Language");
    expect(german.headers["cache-control"]).to.equal("no-cache");
    expect(JSON.parse(german.body.toString())).to.include({ name: "Hearth Gefriertruhe", lang: "de" });
    const english = await raw(base, "/manifest.webmanifest", { "Accept-Language": "en-US,en;q=0.9" });
    expect(JSON.parse(english.body.toString())).to.include({ name: "Hearth freezer", lang: "en" });
    const other = await raw(base, "/manifest.webmanifest", { "Accept-Language": "fr" });
    expect(JSON.parse(other.body.toString())).to.include({ lang: "en" });

    const page = await raw(base, "/items/abc", { "Accept-Language": "de", "Accept-Encoding": "br" });
    expect(page.headers["content-encoding"]).to.equal("br");
    expect(page.headers.vary).to.include("Accept-Language");
    const html = brotliDecompressSync(page.body).toString();
    expect(html).to.include("<title>Hearth Gefriertruhe</title>").and.include('<html lang="de">');
    const englishPage = await raw(base, "/", {});
    expect(englishPage.body.toString()).to.include("<title>Hearth freezer</title>");
  });

  it("keeps a family member's first load under 150 kB gzipped; the House pages load only when opened", () => {
    const page = readFileSync(path.join(directory, "index.html"), "utf8");
    const style = /href="\/(assets\/[^"]+\.css)"/.exec(page)?.[1];
    // Static imports are fetched before the app starts; import() chunks only when asked for.
    const staticImport = /import\s*(?:[\w$*{},\s]+from\s*)?["']\.\/([^"']+\.js)["']/g;
    const firstLoad = new Set<string>();
    const pending = [script];
    while (pending.length > 0) {
      const file = pending.pop() as string;
      if (firstLoad.has(file)) continue;
      firstLoad.add(file);
      const code = readFileSync(path.join(directory, file), "utf8");
      for (const match of code.matchAll(staticImport)) pending.push(`assets/${match[1]}`);
    }
    if (style) firstLoad.add(style);
    const bytes = [...firstLoad].reduce(
      (total, file) => total + gzipSync(readFileSync(path.join(directory, file)), { level: 9 }).length,
      0,
    );
    expect(bytes, [...firstLoad].join(", ")).to.be.below(150 * 1024);
    const house = readdirSync(path.join(directory, "assets")).filter((file) => /^house-.*\.js$/.test(file));
    expect(house, "the House pages are a chunk of their own").to.have.length(1);
    expect([...firstLoad]).to.not.include(`assets/${house[0]}`);
  });
});
