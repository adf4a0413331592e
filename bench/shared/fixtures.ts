// Data shared by the three bench apps (rove, hono, raw) and by the runner's
// correctness checks, so that every target does exactly the same work.

export interface Fortune {
  id: number;
  message: string;
}

export const FORTUNES: readonly Fortune[] = [
  { id: 1, message: 'fortune: No such file or directory' },
  { id: 2, message: "A computer scientist is someone who fixes things that aren't broken." },
  { id: 3, message: 'After enough decimal places, nobody gives a damn.' },
  { id: 4, message: 'A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1' },
  { id: 5, message: 'A computer program does what you tell it to do, not what you want it to do.' },
  { id: 6, message: 'Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen' },
  { id: 7, message: 'Any program that runs right is obsolete.' },
  { id: 8, message: 'A list is only as strong as its weakest link. — Donald Knuth' },
  { id: 9, message: 'Feature: A bug with seniority.' },
  { id: 10, message: 'Computers make very fast, very accurate mistakes.' },
  { id: 11, message: '<script>alert("This should not be displayed in a browser alert box.");</script>' },
  { id: 12, message: 'フレームワークのベンチマーク' },
];

export const EXTRA_FORTUNE_MESSAGE = 'Additional fortune added at request time.';

/** The per-request fortunes list: the stored rows plus one, sorted by message. */
export function fortunesForRequest(): Fortune[] {
  const rows = FORTUNES.slice();
  rows.push({ id: 0, message: EXTRA_FORTUNE_MESSAGE });
  rows.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  return rows;
}

/** Built per request on purpose: the scenario measures serialisation of a fresh object. */
export function nestedUser() {
  return {
    id: 1,
    name: 'John Doe',
    email: 'john@example.com',
    createdAt: '2026-01-15T08:00:00.000Z',
    profile: {
      avatar: 'https://example.com/avatar.png',
      bio: 'Software Engineer',
      location: 'Shanghai, China',
    },
    roles: ['user', 'admin'],
    metadata: { loginCount: 42, lastLogin: '2026-01-14T20:30:00.000Z' },
  };
}

/** The /test-cpu and /test-worker loop. */
export function cpuWork(): number {
  let value = 0;
  for (let i = 0; i < 50_000; i++) value += Math.sqrt(i);
  return value;
}

export const PARAMS_BODY =
  '{"name":"Ada Lovelace","email":"ada@example.com","age":36,"role":"admin","active":true,"score":98.5,"tags":["math","engines"],"country":"GB","bio":"First programmer","address":{"city":"London","zip":"W1"}}';

export const ECHO_BODY = '{"hello":"world","n":42,"ok":true,"list":[1,2,3]}';

// header {"alg":"HS256","typ":"JWT"}, payload {"sub":"bench-user","name":"Bench","iat":1767225600};
// the signature is never checked (the scenario measures decoding, not crypto).
export const BENCH_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJiZW5jaC11c2VyIiwibmFtZSI6IkJlbmNoIiwiaWF0IjoxNzY3MjI1NjAwfQ.c2lnbmF0dXJlLW5vdC1jaGVja2Vk';

export const POWERED_BY = 'benchmark';
