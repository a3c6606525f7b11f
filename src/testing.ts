export * from "./composition/test-engine.js";
