// The example's two HTML pages, escaped by hand (the app is small enough to need no views).
import type { StoredFile } from './app.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function formPage(maxFileSize: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Upload</title></head>
<body>
<h1>Upload a file</h1>
<p>Up to ${Math.floor(maxFileSize / (1024 * 1024))} MiB a file, two files at most.</p>
<form method="post" action="/upload" enctype="multipart/form-data">
  <label>Description <input name="description" maxlength="200"></label>
  <label>File <input type="file" name="file" required></label>
  <label>Another <input type="file" name="more"></label>
  <button type="submit">Upload</button>
</form>
</body></html>`;
}

export function resultPage(description: string, files: StoredFile[]): string {
  const rows = files
    .map(
      (f) =>
        `<tr><td class="name">${escapeHtml(f.name)}</td><td class="size">${f.size}</td><td class="kind">${escapeHtml(f.kind)}</td><td class="sha256">${f.sha256 ?? ''}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Uploaded</title></head>
<body>
<h1>Uploaded</h1>
<p class="description">${escapeHtml(description)}</p>
<table><thead><tr><th>Name</th><th>Bytes</th><th>Kind</th><th>SHA-256</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p><a href="/">Another</a></p>
</body></html>`;
}
