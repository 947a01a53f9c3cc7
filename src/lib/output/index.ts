// till's output layer: formats, colour, columns and writers. Free of oclif and HTTP.
export {FORMATS, type Format, colorEnabled, formatIso, formatMoney, formatRelative, type Money, resolveFormat} from './format.js'
export {
  allFieldColumns, type Column, ColumnError, type ColumnKind, type ColumnsSpec, columnsFor, fieldColumn, genericColumns,
  moneyColumn, orderColumns, productColumns, type ResourceColumns, resourceColumns, type Row, selectColumns,
} from './columns.js'
export {isOutputClosed} from './sink.js'
export {
  chalkFor, createListWriter, type ListWriter, type ListWriterOptions, type ObjectWriterOptions, TABLE_BATCH, writeList,
  writeObject,
} from './writers.js'
