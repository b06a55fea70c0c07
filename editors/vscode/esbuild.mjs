// Bundles the extension and vscode-languageclient into out/extension.js, so the .vsix needs no
// node_modules. `--production` minifies (vsce runs it through `vscode:prepublish`).
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");

await esbuild.build({
  entryPoints: ["src/extension.ts"],
  bundle: true,
  outfile: "out/extension.js",
  // Provided by VS Code at run time.
  external: ["vscode"],
  format: "cjs",
  platform: "node",
  target: "node18",
  minify: production,
  sourcemap: !production,
  logLevel: "warning",
});
