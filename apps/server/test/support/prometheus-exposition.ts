// Reads the Prometheus text exposition of GET /metrics the way a scraper does: sample lines
// `name{label="value",…} number`, and `# TYPE name kind`. A line that is neither fails the test.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** Kind of each family by name (`counter`, `gauge`, `histogram`, …). */
  types: Map<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;
const UNESCAPE: Record<string, string> = { '\\\\': '\\', '\\"': '"', '\\n': '\n' };

export function parseExposition(text: string): Exposition {
  const exposition: Exposition = { samples: [], types: new Map() };
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      exposition.types.set(type[1]!, type[2]!);
      continue;
    }
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    const body = sample[2] ?? '';
    let consumed = 0;
    LABEL.lastIndex = 0;
    for (let match = LABEL.exec(body); match; match = LABEL.exec(body)) {
      labels[match[1]!] = match[2]!.replace(/\\[\\"n]/g, (sequence) => UNESCAPE[sequence]!);
      consumed = LABEL.lastIndex;
    }
    if (consumed !== body.length) throw new Error(`bad labels: ${line}`);
    exposition.samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
  }
  return exposition;
}

/** `GET /metrics` from loopback (the default address of `inject`), parsed. */
export async function scrape(app: FastifyInstance): Promise<Exposition> {
  const answer = await app.inject({ method: 'GET', url: '/metrics' });
  expect(answer.statusCode, answer.body).toBe(200);
  return parseExposition(answer.body);
}

/** The series of `name` whose labels include `labels`. */
export function seriesOf(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): Sample[] {
  return exposition.samples.filter(
    (sample) =>
      sample.name === name &&
      Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
}

/** The value of the one series of `name` with `labels`, or undefined when there is none. */
export function sampleValue(
  exposition: Exposition,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const matching = seriesOf(exposition, name, labels);
  if (matching.length > 1) throw new Error(`${name}: ${matching.length} series match`);
  return matching[0]?.value;
}
