/**
 * The HomeKit setup QR code: the `X-HM://` setup URI (HAP specification, "Setup Payload")
 * drawn as an SVG, for the web UI to show next to the setup code. Drawn with uqr, the QR
 * encoder the web app already uses for invites, so Hearth ships one QR library.
 */
import { encode } from "uqr";

/** Modules of white around the code: the quiet zone the QR specification asks for. */
const QUIET_ZONE = 4;

/** An SVG data URI of the QR code for `setupUri` (black modules on white, with the quiet zone). */
export function setupQrDataUri(setupUri: string): string {
  const { data, size } = encode(setupUri, { ecc: "Q", border: QUIET_ZONE });
  let path = "";
  for (const [y, row] of data.entries()) {
    for (const [x, dark] of row.entries()) {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    }
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
