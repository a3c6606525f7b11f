import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "chai";
import { checkProject, parseCompilerOutput } from "../../../src/adapters/typecheck/native-type-checker.js";

describe("the native type checker's project and output", () => {
  describe("parseCompilerOutput", () => {
    it("reads located errors with their message chains, global errors, and the listed files", () => {
      const output = [
        "/work/lib/lib.es5.d.ts",
        "wrong.ts(6,11): error TS2322: Type 'string' is not assignable to type 'number'.",
        "nested/deep.ts(5,7): error TS2322: Type '{ a: string; }' is not assignable to type '{ a: number; }'.",
        "  The types of 'a' are incompatible between these types.",
        "    Type 'string' is not assignable to type 'number'.",
        "error TS5102: Option 'baseUrl' has been removed. Please remove it from your configuration.",
        "/work/project/wrong.ts",
        "",
      ].join("\n");
      const { diagnostics, listed } = parseCompilerOutput(output, "/work/project");
      expect(diagnostics).to.deep.equal([
        {
          file: "/work/project/wrong.ts",
          line: 6,
          column: 11,
          code: 2322,
          message: "Type 'string' is not assignable to type 'number'.",
        },
        {
          file: "/work/project/nested/deep.ts",
          line: 5,
          column: 7,
          code: 2322,
          message:
            "Type '{ a: string; }' is not assignable to type '{ a: number; }'.\n  The types of 'a' are incompatible between these types.\n    Type 'string' is not assignable to type 'number'.",
        },
        {
          file: "",
          line: 0,
          column: 0,
          code: 5102,
          message: "Option 'baseUrl' has been removed. Please remove it from your configuration.",
        },
      ]);
      expect(listed).to.deep.equal(["/work/lib/lib.es5.d.ts", "/work/project/wrong.ts"]);
    });

    it("reads Windows line endings and a path with parentheses", () => {
      const output = "a (copy).ts(1,2): error TS1005: ';' expected.\r\n/x/a (copy).ts\r\n";
      const { diagnostics, listed } = parseCompilerOutput(output, "/x");
      expect(diagnostics.map((diagnostic) => [diagnostic.file, diagnostic.line, diagnostic.column])).to.deep.equal([
        ["/x/a (copy).ts", 1, 2],
      ]);
      expect(listed).to.deep.equal(["/x/a (copy).ts"]);
    });

    it("reads nothing from no output", () => {
      expect(parseCompilerOutput("", "/x")).to.deep.equal({ diagnostics: [], listed: [] });
    });
  });

  describe("checkProject", () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), "hearth-native-project-"));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("checks exactly the automation files under the tsconfig's options, emitting nothing", () => {
      const project = checkProject(["/p/a.ts", "/p/b.ts"], "/p/tsconfig.json", { types: ["node"] }, "/p");
      expect(project).to.deep.include({
        extends: "/p/tsconfig.json",
        files: ["/p/a.ts", "/p/b.ts"],
        include: [],
        references: [],
      });
      expect(project.compilerOptions).to.deep.include({ noEmit: true, incremental: false, composite: false });
      // The tsconfig names its types: they are its to choose.
      expect(project.compilerOptions).not.to.have.property("types");
    });

    it("names every @types package above the project when the tsconfig names none, as TypeScript 5 included them", async () => {
      const project = path.join(dir, "home", "automations");
      await mkdir(path.join(dir, "node_modules", "@types", "node"), { recursive: true });
      await mkdir(path.join(dir, "node_modules", "@types", "babel__core"), { recursive: true });
      await mkdir(path.join(dir, "home", "node_modules", "@types", "node"), { recursive: true });
      await writeFile(path.join(dir, "node_modules", "@types", ".package-lock.json"), "{}");
      await mkdir(project, { recursive: true });
      const options = checkProject([path.join(project, "a.ts")], path.join(project, "tsconfig.json"), {}, project)
        .compilerOptions as { typeRoots: string[]; types: string[] };
      expect(options.typeRoots).to.deep.equal([
        path.join(dir, "home", "node_modules", "@types"),
        path.join(dir, "node_modules", "@types"),
      ]);
      expect(options.types).to.deep.equal(["babel__core", "node"]);
    });

    it("keeps the tsconfig's own type roots, from its folder", () => {
      const options = checkProject(["/p/a.ts"], "/p/tsconfig.json", { typeRoots: ["./typings"], types: [] }, "/p")
        .compilerOptions as { typeRoots: string[] };
      expect(options.typeRoots).to.deep.equal(["/p/typings"]);
    });

    it("uses strict Node defaults without a tsconfig", () => {
      const project = checkProject([path.join(dir, "a.ts")], undefined, {}, dir);
      expect(project).not.to.have.property("extends");
      expect(project.compilerOptions).to.deep.include({ strict: true, lib: ["es2023"], module: "nodenext" });
    });
  });
});
