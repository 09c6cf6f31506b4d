/*
 * The columns of a join read as arrays (`preparedQuery`'s `arrays`): each table's columns named
 * apart in the select list, and read back by position.
 */

/** `columns` of the table aliased `alias` in a join, each named `<alias>__<column>`: a joined row's names stay apart. */
export const aliasedColumns = (alias: string, columns: ReadonlyArray<string>): Array<string> =>
  columns.map((column) => `${alias}.${column} as ${alias}__${column}`)

/** The record of `columns` whose values start at `offset` of `row`. */
export const recordOf = (columns: ReadonlyArray<string>, row: ReadonlyArray<unknown>, offset: number) => {
  const record: Record<string, unknown> = {}
  for (let i = 0; i < columns.length; i += 1) record[columns[i] as string] = row[offset + i]
  return record
}
