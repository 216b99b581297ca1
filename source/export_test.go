package source

// PositionShortcut switches the librdkafka paths' position query on idle
// polls (see rdkConsumer.position): off, only EOF events end a partition
// whose tail is never delivered.
var PositionShortcut = &positionShortcut
