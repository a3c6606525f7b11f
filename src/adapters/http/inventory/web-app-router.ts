import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import express, { type NextFunction, type Request, type Response, type Router } from "express";

/**
 * Files whose names carry a content hash (web/dist/assets/*) never change under that name, so
 * browsers may keep them for a year; everything else (index.html, the service worker, the
 * manifest) must be revalidated so a new release reaches the phone on its next visit.
 */
const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";
const API_PATH = /^\/api(\/|$)/;

const NOT_BUILT_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8"><title>Hearth</title></head>
<body><h1>The Hearth web app is not built</h1>
<p>Run <code>npm run build</code> in the Hearth folder, then reload. The API documentation is at <a href="/api/docs">/api/docs</a>.</p>
</body></html>
`;

/**
 * The household web app (a single-page app built into `directory` by scripts/build-web.mjs):
 * its files, and index.html for every other GET that is not under /api, so deep links such as
 * /invite/<code> open the app. A missing build answers 503 with how to build it.
 */
export function createWebAppRouter(directory: string | undefined): Router {
  const router = express.Router();
  const index = directory ? path.join(directory, "index.html") : undefined;
  if (!directory || !index || !existsSync(index)) {
    router.get(/^\/(?!api(\/|$)).*/, (_req, res) => {
      res.status(503).type("html").setHeader("Cache-Control", REVALIDATE).send(NOT_BUILT_PAGE);
    });
    return router;
  }
  const serveVariant = variantServer(directory);
  const files = express.static(directory, {
    index: false,
    redirect: false,
    setHeaders: (res, file) => {
      const relative = path.relative(directory, file);
      res.setHeader("Cache-Control", relative.startsWith(`assets${path.sep}`) ? IMMUTABLE : REVALIDATE);
      // The service worker may control the whole app, not just the folder it sits in.
      if (relative === "sw.js") res.setHeader("Service-Worker-Allowed", "/");
    },
  });
  // The app has no file under /api; without this guard every API request paid a stat() of a
  // missing file, about 8 % of the CPU of a read request (docs/performance.md).
  router.use((req, res, next) => {
    if (API_PATH.test(req.path)) {
      next();
      return;
    }
    if (serveVariant(req, res, next)) return;
    files(req, res, next);
  });
  router.get(/^\/(?!api(\/|$)|assets\/).*/, (req, res, next) => {
    // A missing file with an extension (an old hashed asset, a typo) is a 404, not the app.
    if (path.extname(req.path) !== "") {
      next();
      return;
    }
    if (!serveVariant(req, res, next, "index.html")) {
      res.setHeader("Cache-Control", REVALIDATE);
      res.sendFile(index);
    }
  });
  return router;
}

/** Precompressed copies the build writes beside each text file, best first. */
const ENCODINGS = [
  { name: "br", suffix: ".br" },
  { name: "gzip", suffix: ".gz" },
] as const;

/**
 * The best of `offered` for an Accept-Encoding header: the highest q wins, and a tie goes to
 * the order of `offered` (brotli first), not the header's: browsers list gzip before br.
 */
function preferredEncoding<T extends { name: string }>(
  header: string | undefined,
  offered: readonly T[],
): T | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(",")) {
    const [token = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q ? Number.parseFloat(q.slice(2)) : 1;
    weights.set(token.trim(), Number.isFinite(weight) ? weight : 0);
  }
  let best: T | undefined;
  let bestWeight = 0;
  for (const encoding of offered) {
    const weight = weights.get(encoding.name) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

/** Files the build writes once per language (`<name>.<lang>.<ext>`); English is the plain name. */
const LOCALISED = new Set(["index.html", "manifest.webmanifest"]);
const LANGUAGES = ["en", "de"];

/** `manifest.webmanifest` in German is `manifest.de.webmanifest`. */
function localisedName(file: string, language: string): string {
  if (language === "en") return file;
  const extension = path.posix.extname(file);
  return `${file.slice(0, -extension.length)}.${language}${extension}`;
}

/**
 * Serves the build's variants of a file: the page and the manifest in the browser's language
 * (Accept-Language), and the brotli or gzip copy the build made when the browser accepts it
 * (Accept-Encoding), each with `Vary` so caches keep them apart. Returns false for a file with
 * no variants (the static handler serves it as it is).
 */
function variantServer(directory: string) {
  // The build output does not change under a running server; listing it once saves a stat()
  // per request. A file added later has no variants listed and is served as it is.
  const available = new Set(
    readdirSync(directory, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)).split(path.sep).join("/")),
  );
  return (req: Request, res: Response, next: NextFunction, fixed?: string): boolean => {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    let requested = fixed;
    if (requested === undefined) {
      try {
        requested = decodeURIComponent(req.path).replace(/^\/+/, "");
      } catch {
        return false;
      }
    }
    if (!available.has(requested)) return false;
    const vary: string[] = [];
    let file = requested;
    if (LOCALISED.has(requested)) {
      vary.push("Accept-Language");
      const language = req.acceptsLanguages(...LANGUAGES) || "en";
      if (available.has(localisedName(requested, language))) file = localisedName(requested, language);
    }
    const encodings = ENCODINGS.filter((encoding) => available.has(file + encoding.suffix));
    if (encodings.length > 0) vary.push("Accept-Encoding");
    if (vary.length === 0) return false;
    const encoding = preferredEncoding(req.headers["accept-encoding"], encodings);
    res.setHeader("Vary", vary.join(", "));
    res.setHeader("Cache-Control", requested.startsWith("assets/") ? IMMUTABLE : REVALIDATE);
    if (requested === "sw.js") res.setHeader("Service-Worker-Allowed", "/");
    res.type(path.posix.extname(requested));
    if (encoding) res.setHeader("Content-Encoding", encoding.name);
    res.sendFile(path.join(directory, file + (encoding?.suffix ?? "")), (error) => {
      if (error) next(error);
    });
    return true;
  };
}
