import { createRequire } from "node:module";
import path from "node:path";
import express, { type Router } from "express";

const require = createRequire(import.meta.url);

/** Folder of the swagger-ui-dist package, served as static files (no CDN). */
function swaggerUiFolder(): string {
  return path.dirname(require.resolve("swagger-ui-dist/package.json"));
}

// Replaces the package's initializer, which points at the Petstore example. validatorUrl null:
// on any host but localhost Swagger UI would otherwise send the document's address to
// validator.swagger.io, which a home server should not do (and cannot reach offline).
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: "/api/v1/openapi.json",
    validatorUrl: null,
    dom_id: "#swagger-ui",
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: "StandaloneLayout"
  });
};
`;

// Our own page with absolute asset URLs, so /api/docs and /api/docs/ both work without a
// redirect; scripts are files (no inline code), which helmet's CSP requires.
function indexPage(mountPath: string): string {
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <title>Hearth inventory API</title>
    <link rel="stylesheet" href="${mountPath}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${mountPath}/favicon-32x32.png" sizes="32x32">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${mountPath}/swagger-ui-bundle.js"></script>
    <script src="${mountPath}/swagger-ui-standalone-preset.js"></script>
    <script src="${mountPath}/swagger-initializer.js"></script>
  </body>
</html>
`;
}

/** Swagger UI at `mountPath` (default /api/docs) reading /api/v1/openapi.json. */
export function createApiDocsRouter(mountPath = "/api/docs"): Router {
  const router = express.Router();
  const page = indexPage(mountPath);
  router.get(["/", "/index.html"], (_req, res) => {
    res.type("html").send(page);
  });
  router.get("/swagger-initializer.js", (_req, res) => {
    res.type("application/javascript").send(INITIALIZER);
  });
  router.use(express.static(swaggerUiFolder(), { index: false }));
  return router;
}
