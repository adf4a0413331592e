// The public members of a class, as its declaration file (dist/, from `npm run build`) shows them.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

/** `Class.member` for every public property, method and accessor of `className` in `file`: no `#private`, no constructor. */
export function publicMembers(file: string, className: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = source.statements.find((s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === className);
  if (found === undefined) throw new Error(`No class ${className} in ${file}`);
  const names = new Set<string>();
  for (const member of found.members) {
    if (!(ts.isPropertyDeclaration(member) || ts.isMethodDeclaration(member) || ts.isGetAccessor(member) || ts.isSetAccessor(member))) continue;
    if (ts.isPrivateIdentifier(member.name)) continue;
    const hidden = ts.getModifiers(member)?.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword);
    if (hidden) continue;
    // An overloaded method, or a getter with its setter, is one member.
    names.add(`${className}.${member.name.getText(source)}`);
  }
  return [...names].sort();
}
