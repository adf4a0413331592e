// The /params schema, one zod object used by all three bench apps: Rove and
// Hono through their validators, raw by calling safeParse itself. zod 4
// implements Standard Schema, which is what Rove's validate() accepts.
import { z } from 'zod';

export const paramsSchema = z.object({
  name: z.string().min(1).max(100),
  email: z.email(),
  age: z.number().int().min(0).max(150),
  role: z.enum(['user', 'admin', 'guest']),
  active: z.boolean(),
  score: z.number().min(0).max(100),
  tags: z.array(z.string()).max(10),
  country: z.string().regex(/^[A-Z]{2}$/),
  bio: z.string().max(500),
  address: z.object({ city: z.string(), zip: z.string() }),
});

export type Params = z.infer<typeof paramsSchema>;

export interface ProblemIssue {
  path: string;
  message: string;
}

/** RFC 9457 problem+json body for a failed validation, used by the raw and hono peers. */
export function validationProblem(issues: readonly { path?: readonly PropertyKey[] | readonly unknown[]; message: string }[]) {
  const list: ProblemIssue[] = issues.map((i) => ({
    path: (i.path ?? []).map((p) => String(typeof p === 'object' && p !== null && 'key' in p ? (p as { key: unknown }).key : p)).join('.'),
    message: i.message,
  }));
  return {
    type: 'about:blank',
    title: 'Bad Request',
    status: 400,
    detail: `Invalid fields: ${list.map((i) => i.path || '(root)').join(', ')}`,
    issues: list,
  };
}
