import { existsSync } from "node:fs";
import path from "node:path";
import express, { type Router } from "express";

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
  router.use((req, res, next) => (API_PATH.test(req.path) ? next() : files(req, res, next)));
  router.get(/^\/(?!api(\/|$)|assets\/).*/, (req, res, next) => {
    // A missing file with an extension (an old hashed asset, a typo) is a 404, not the app.
    if (path.extname(req.path) !== "") {
      next();
      return;
    }
    res.setHeader("Cache-Control", REVALIDATE);
    res.sendFile(index);
  });
  return router;
}
