import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from '../src';
import { hasUnstorableText, messages, text } from '../src';

describe('text a client sends', () => {
  it.each(['\u0000', 'a\u0000b', '\uD800', 'a\uDBFFb', '\uDC00', 'x\uDFFF', '\uDC00\uD800'])(
    'refuses %j: PostgreSQL cannot store it as it was sent',
    (value) => {
      expect(hasUnstorableText(value)).toBe(true);
      const result = text().safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0].message).toBe(messages.unstorableText);
    },
  );

  it.each(['', 'plain', 'é and ü', '😂🔥', '\uD83D\uDE02', 'tab\tand\nnewline', '\uFFFD'])(
    'accepts %j',
    (value) => {
      expect(hasUnstorableText(value)).toBe(false);
      expect(text().safeParse(value).success).toBe(true);
    },
  );
});

type Schema = z.ZodType & { _zod: { def: Record<string, unknown> & { type: string } } };

/** The string schemas inside a request schema, with where they sit. */
function strings(schema: Schema, path: string): [string, Schema][] {
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
      return [[path, schema]];
    case 'object':
      return Object.entries(def.shape as Record<string, Schema>).flatMap(([key, inner]) =>
        strings(inner, `${path}.${key}`),
      );
    case 'array':
      return strings(def.element as Schema, `${path}[]`);
    case 'optional':
    case 'nullable':
    case 'default':
      return strings(def.innerType as Schema, path);
    case 'pipe':
      return [...strings(def.in as Schema, path), ...strings(def.out as Schema, path)];
    default:
      return [];
  }
}

// Every schema of the contract that parses what a client sends, found by name, new ones too
// (errorBodySchema is the server's answer).
const requestSchemas = Object.entries(contract).filter(
  ([name]) => /(Body|Query|Fields|Batch|Proof)Schema$/.test(name) && name !== 'errorBodySchema',
) as [string, Schema][];

describe('every string field of every request schema', () => {
  it('is found', () => {
    expect(requestSchemas.length).toBeGreaterThan(15);
  });

  it.each(requestSchemas)('of %s refuses NUL and unpaired surrogates', (_name, schema) => {
    for (const [path, field] of strings(schema, _name)) {
      for (const bad of ['abc\u0000def', 'abc\uD800def']) {
        expect({ path, accepted: field.safeParse(bad).success }).toEqual({
          path,
          accepted: false,
        });
      }
    }
  });
});
