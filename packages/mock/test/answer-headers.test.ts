// Headers an integrator paces and traces calls by: X-Request-Id on every answer of the server
// (echoed when sane, in the verbose log line), and with a rate limit the IETF draft's
// RateLimit-Policy and RateLimit on every answer the limit applies to, the 429 included.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../src/index.js';

const lines: string[] = [];
let limited: RunningMock;
let open: RunningMock;

beforeAll(async () => {
  limited = await startMock({ port: 0, rateLimit: 3, verbose: true, log: (line) => lines.push(line) });
  open = await startMock({ port: 0 });
}, 60_000);
afterAll(async () => {
  await limited?.close();
  await open?.close();
});

const clock = (mock: RunningMock, token: string, headers: Record<string, string> = {}) => fetch(`${mock.url}/__sandbox/clock`, { headers: { authorization: `Bearer ${token}`, ...headers } });

it('counts a token down in RateLimit under its RateLimit-Policy, and says when it is whole again on the 429', async () => {
  // Three calls a second: a call may be counted back once a third of a second has passed, so the
  // four calls are judged only when they took less (a busy machine may need another token's try).
  let answers: Response[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    await clock(limited, `warm-${attempt}`);
    const started = performance.now();
    answers = [];
    for (let i = 0; i < 4; i++) answers.push(await clock(limited, `paced-${attempt}`, { 'X-Request-Id': `call-${i}` }));
    if (performance.now() - started < 1000 / 3) break;
  }
  expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
  for (const answer of answers) expect(answer.headers.get('ratelimit-policy')).toBe('"per-client";q=3;w=1');
  const remaining = answers.map((a) => Number(/;r=(\d+)/.exec(a.headers.get('ratelimit') ?? '')?.[1]));
  expect(remaining[0]).toBe(2);
  expect(remaining[3]).toBe(0);
  expect(remaining).toEqual([...remaining].sort((a, b) => b - a));
  const refused = answers[3]!;
  expect(refused.headers.get('ratelimit')).toBe(`"per-client";r=0;t=${refused.headers.get('retry-after')}`);
  expect(answers.map((a) => a.headers.get('x-request-id'))).toEqual(['call-0', 'call-1', 'call-2', 'call-3']);
  expect(refused.headers.get('access-control-expose-headers')).toContain('RateLimit');
  expect(lines.some((line) => line.includes('-> 429') && line.includes('X-Request-Id: call-3'))).toBe(true);
  expect(lines.some((line) => line.includes('-> 200') && line.includes('X-Request-Id: call-0'))).toBe(true);
});

it('sends no rate limit header without a limit, and a request id on the server\'s own answers', async () => {
  const answer = await clock(open, 'unlimited');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('ratelimit')).toBeNull();
  expect(answer.headers.get('ratelimit-policy')).toBeNull();
  expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  const ready = await fetch(`${open.url}/__ready`, { headers: { 'X-Request-Id': 'probe-1' } });
  expect(ready.headers.get('x-request-id')).toBe('probe-1');
});
