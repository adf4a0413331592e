import { describe, expect, it } from 'vitest';
import { classifyRouteFile, FileRouteError } from '../../src/fs-routes/conventions.ts';
import { planRoutes } from '../../src/fs-routes/table.ts';

describe('fs-routes conventions', () => {
  it.each([
    ['index.ts', '/'],
    ['about.ts', '/about'],
    ['about.js', '/about'],
    ['about.mjs', '/about'],
    ['users/index.ts', '/users'],
    ['users/[id].ts', '/users/:id'],
    ['users/[id]/posts.ts', '/users/:id/posts'],
    ['users/[id]/posts/[postId].ts', '/users/:id/posts/:postId'],
    ['docs/[...path].ts', '/docs/*path'],
    ['[...rest].ts', '/*rest'],
    ['[slug]/index.ts', '/:slug'],
    ['hello world.ts', '/hello%20world'],
    ['日本.ts', `/${encodeURIComponent('日本')}`],
  ])('the file %s is the route %s', (file, pattern) => {
    expect(classifyRouteFile(file)).toMatchObject({ kind: 'route', file, pattern });
  });

  it.each([
    ['_middleware.ts', '/'],
    ['users/_middleware.ts', '/users'],
    ['users/[id]/_middleware.js', '/users/:id'],
  ])('the file %s is middleware for %s', (file, prefix) => {
    expect(classifyRouteFile(file)).toEqual({ kind: 'middleware', file, prefix, shape: expect.any(String) });
  });

  it.each([
    '_lib/x.ts',
    '_x.ts',
    'users/_helpers/db.ts',
    'x.test.ts',
    'users/[id].spec.ts',
    'types.d.ts',
    'README.md',
    'style.css',
    'data.json',
    'x.tsx',
    '.hidden.ts',
    '.git/config.ts',
    'ts',
  ])('the file %s is ignored: not a route', (file) => {
    expect(classifyRouteFile(file)).toBeNull();
  });

  it.each([
    ['user-[id].ts', 'a param must fill a whole path segment'],
    ['[1id].ts', 'a param name must be an identifier'],
    ['[id]/[id].ts', 'appears twice'],
    ['docs/[...path]/more.ts', 'a catch-all must be the file name'],
    ['[...path]/_middleware.ts', 'a catch-all must be the file name'],
    [':id.ts', 'cannot start with ":"'],
    ['a#b.ts', 'cannot contain'],
  ])('the name %s is an error naming the file', (file, message) => {
    let error: unknown;
    try {
      classifyRouteFile(file);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FileRouteError);
    expect((error as FileRouteError).files).toEqual([file]);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toContain(message);
  });

  it.each([
    ['about.ts', 'about/index.ts'],
    ['about.ts', 'about.js'],
    ['users/[id].ts', 'users/[name].ts'],
    ['users/[id].ts', 'users/[userId]/index.ts'],
    ['docs/[...path].ts', 'docs/[...rest].ts'],
    ['index.ts', 'index.mjs'],
    ['_middleware.ts', '_middleware.js'],
  ])('two files for one route are an error naming both: %s and %s', (a, b) => {
    expect(() => planRoutes([a, b, 'other.ts'])).toThrow(FileRouteError);
    try {
      planRoutes([b, 'other.ts', a]);
    } catch (e) {
      expect((e as FileRouteError).files.sort()).toEqual([a, b].sort());
      expect((e as Error).message).toContain(a);
      expect((e as Error).message).toContain(b);
    }
  });

  it('a route and middleware for the same path do not clash', () => {
    expect(
      planRoutes(['users/index.ts', 'users/_middleware.ts'])
        .map((p) => p.kind)
        .sort(),
    ).toEqual(['middleware', 'route']);
  });
});
