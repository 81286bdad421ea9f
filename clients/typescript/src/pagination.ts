/**
 * Walks a list endpoint's pages (`{data: [...], has_more, next_cursor}`) by passing each page's
 * `next_cursor` as the next request's `cursor`, and yields every item, page after page, until
 * `next_cursor` is null. The server's order is stable, also while rows are being written
 * (CONTRACT: every row exactly once).
 */
export interface Page<Item> {
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Yields every item of the pages that `fetchPage(cursor)` answers, the first with no cursor. */
export async function* eachItem<Item>(fetchPage: (cursor: string | undefined) => Promise<Page<Item>>): AsyncGenerator<Item, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.data;
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
}
