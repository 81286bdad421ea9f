/**
 * The command line checks what it sends to the service against the same schema the HTTP API
 * validates its body with, so both faces accept and refuse the same input with the same errors.
 * Schemas (and TypeBox) are loaded only by the commands that write.
 */
import type { Static, TSchema } from 'typebox';

export async function checkedBody<T extends TSchema>(loadSchema: () => Promise<T>, body: Record<string, unknown>): Promise<Static<T>> {
  const [{ parseWithSchema }, schema] = await Promise.all([import('../schemas/validate.js'), loadSchema()]);
  // Options that were not given are absent, as they would be from a JSON body.
  const present = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
  return parseWithSchema(schema, present);
}
