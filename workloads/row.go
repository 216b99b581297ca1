package workloads

// Row is one record as Go values: the rowwise rung decodes into it and the
// corpus generator produces it. Fields a schema lacks stay zero.
type Row struct {
	// bid
	Auction  int64
	Bidder   int64
	Price    int64 // cents
	Channel  string
	URL      string
	DateTime int64 // milliseconds since the Unix epoch, UTC
	Extra    string

	// bid-wide only
	Seller     int64
	Category   int64
	Reserve    int64
	InitialBid int64
	ItemName   string
	City       string
	State      string
	Email      string

	// Payload is the opaque message body of the raw format.
	Payload []byte
}

// field identifies a Row field, so codecs can walk a schema's columns.
type field uint8

const (
	fAuction field = iota
	fBidder
	fPrice
	fChannel
	fURL
	fDateTime
	fExtra
	fSeller
	fCategory
	fReserve
	fInitialBid
	fItemName
	fCity
	fState
	fEmail
	fPayload
)

// intField returns the int64 field f of r (nil if f is not an int64 field).
func (r *Row) intField(f field) *int64 {
	switch f {
	case fAuction:
		return &r.Auction
	case fBidder:
		return &r.Bidder
	case fPrice:
		return &r.Price
	case fDateTime:
		return &r.DateTime
	case fSeller:
		return &r.Seller
	case fCategory:
		return &r.Category
	case fReserve:
		return &r.Reserve
	case fInitialBid:
		return &r.InitialBid
	}
	return nil
}

// strField returns the string field f of r (nil if f is not a string field).
func (r *Row) strField(f field) *string {
	switch f {
	case fChannel:
		return &r.Channel
	case fURL:
		return &r.URL
	case fExtra:
		return &r.Extra
	case fItemName:
		return &r.ItemName
	case fCity:
		return &r.City
	case fState:
		return &r.State
	case fEmail:
		return &r.Email
	}
	return nil
}
