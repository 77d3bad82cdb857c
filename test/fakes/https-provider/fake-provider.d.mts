/** A CA made with openssl and a server certificate for 127.0.0.1 signed by it. */
export interface TestCa {
  dir: string;
  caFile: string;
  ca: string;
  key: string;
  cert: string;
}

export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

/** What the fake answers for a request: a status and body (after `delayMs`), or `hang` (never answers). */
export type FakeAnswer = { status: number; body?: string; delayMs?: number } | 'hang';

export interface FakeProvider {
  base: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export function makeTestCa(): TestCa;
export function removeTestCa(ca: TestCa): void;
export function startFakeProvider(ca: TestCa, answer: (req: SeenRequest) => FakeAnswer): Promise<FakeProvider>;
