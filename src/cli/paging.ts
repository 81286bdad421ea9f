/**
 * A list command returns every row unless --limit is given: without it, pages are followed to
 * the end and printed as one list (has_more false).
 */
export async function collect<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ data: T[]; has_more: boolean; next_cursor: string | null }>,
  options: { limit?: number; cursor?: string },
) {
  if (options.limit !== undefined) return fetchPage(options.cursor);
  const data: T[] = [];
  let cursor = options.cursor;
  for (;;) {
    const page = await fetchPage(cursor);
    data.push(...page.data);
    if (!page.has_more || page.next_cursor === null) return { data, has_more: false, next_cursor: null };
    cursor = page.next_cursor;
  }
}
