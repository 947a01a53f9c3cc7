// till's output layer: formats, colour, columns and writers. Free of oclif and HTTP.
export {FORMATS, type Format, colorEnabled, formatIso, formatMoney, formatRelative, type Money, resolveFormat} from './format.js'
export {
  allFieldColumns,
  type Column,
  ColumnError,
  type ColumnKind,
  type ColumnsSpec,
  fieldColumn,
  moneyColumn,
  type ResourceColumns,
  type Row,
  selectColumns,
  cliColumns,
  columnsFor,
  genericColumns,
} from './columns.js'
export {isOutputClosed} from './sink.js'
export {
  chalkFor,
  createListWriter,
  type ListWriter,
  type ListWriterOptions,
  type ObjectWriterOptions,
  renderObject,
  TABLE_BATCH,
  writeList,
  writeObject,
  writeText,
} from './writers.js'
