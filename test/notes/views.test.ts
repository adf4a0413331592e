// examples/notes renders from pre-parsed views (every runtime, Workers included): the module must match its directory.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { notesConfig } from '../../examples/notes/config.ts';
import { NoteStore, noteText } from '../../examples/notes/notes-store.ts';
import { buildViews } from '../../scripts/build-views.ts';

describe('examples/notes', () => {
  it('views.gen.ts is up to date (node --import tsx scripts/build-views.ts examples/notes/views examples/notes/views.gen.ts)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'notes-views-'));
    try {
      await buildViews('examples/notes/views', join(dir, 'views.gen.ts'));
      expect(readFileSync(join(dir, 'views.gen.ts'), 'utf8')).toBe(readFileSync('examples/notes/views.gen.ts', 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads its settings from the environment, with the development defaults', () => {
    expect(notesConfig({})).toEqual({
      sessionSecret: 'dev-session-secret-0123456789abcdef',
      adminPassword: 'secret',
      jwtSecret: 'dev-jwt-secret',
      allowedOrigin: 'https://app.example',
    });
    expect(notesConfig({ ADMIN_PASSWORD: 'x', JWT_SECRET: '' }).adminPassword).toBe('x');
    expect(notesConfig({ JWT_SECRET: '' }).jwtSecret).toBe('dev-jwt-secret');
  });

  it('keeps notes per user, bounded, with __proto__ an ordinary user name', () => {
    const notes = new NoteStore();
    for (let i = 0; i < 150; i++) notes.add('__proto__', `n${i}`);
    expect(notes.list('__proto__')).toHaveLength(100);
    expect(notes.list('__proto__')[0]!.text).toBe('n50');
    expect(notes.list('constructor')).toEqual([]);
    for (let i = 0; i < 1100; i++) notes.add(`u${i}`, 'x');
    expect(notes.users).toBe(1000);
    expect(noteText('  hi  ')).toBe('hi');
    expect(noteText('')).toBeNull();
    expect(noteText('x'.repeat(501))).toBeNull();
    expect(noteText({ toString: () => 'hi' })).toBeNull();
  });
});
