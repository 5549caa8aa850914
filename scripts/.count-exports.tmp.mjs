// Counts the names (values and types) each entry file exports, via the TypeScript checker.
import ts from "typescript";
const files = process.argv.slice(2);
const program = ts.createProgram(files, { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, noEmit: true });
const checker = program.getTypeChecker();
for (const f of files) {
  const sf = program.getSourceFile(f);
  const sym = checker.getSymbolAtLocation(sf);
  const names = checker.getExportsOfModule(sym).map((s) => s.name).sort();
  console.log(f, names.length);
  if (process.env.LIST) console.log(names.join(" "));
}
