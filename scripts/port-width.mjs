// `node scripts/port-width.mjs <port file> [Interface] [--list]`: how wide the store port is, from
// its types (docs/architecture.md, "The store port"). It counts every method of StoreWriter (or the
// interface named), counting into the objects the port hands out (journal, queries, runs, sql, and
// what a method returns, such as the belief tables once were) when they are declared under
// core/store/; a function-typed property counts as a method. `--list` prints each one.
// The last line is one JSON object: {"interface", "methods", "properties"}.
import ts from 'typescript';
import { resolve } from 'node:path';
const portFile = resolve(process.argv[2]);
const program = ts.createProgram([portFile], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true, skipLibCheck: true });
const checker = program.getTypeChecker();
const sf = program.getSourceFile(portFile);
const wanted = process.argv[3] && !process.argv[3].startsWith('--') ? process.argv[3] : 'StoreWriter';
const sym = checker.getExportsOfModule(checker.getSymbolAtLocation(sf)).find((s) => s.name === wanted);
const declaredInStore = (t) => (t.getSymbol()?.declarations ?? []).some((d) => d.getSourceFile().fileName.includes('/core/store/'));
let methods = 0, props = 0; const names = [];
function walk(type, prefix, seen) {
  for (const p of checker.getPropertiesOfType(type)) {
    const decl = p.valueDeclaration ?? p.declarations?.[0];
    const t = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(p, decl));
    const calls = t.getCallSignatures();
    const name = prefix + p.name;
    if (calls.length > 0) {
      methods++; names.push(name + '()');
      const r = calls[0].getReturnType();
      if (declaredInStore(r) && r.isClassOrInterface?.() && checker.getPropertiesOfType(r).some((q) => checker.getTypeOfSymbolAtLocation(q, q.valueDeclaration ?? q.declarations[0]).getCallSignatures().length > 0) && /Reads|Writes|Tables/.test(r.getSymbol().name) && !seen.has(r)) {
        walk(r, name + '().', new Set([...seen, r]));
      }
    } else if (t.isClassOrInterface?.() && declaredInStore(t) && !seen.has(t)) {
      walk(t, name + '.', new Set([...seen, t]));
    } else { props++; names.push(name); }
  }
}
walk(checker.getDeclaredTypeOfSymbol(sym), '', new Set());
if (process.argv.includes('--list')) console.log(names.join('\n'));
console.log(JSON.stringify({ interface: sym.name, methods, properties: props }));
