package stock

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/fastpathlab/fplab/workloads"
)

//go:generate protoc --go_out=. --go_opt=paths=source_relative --go-vtproto_out=. --go-vtproto_opt=paths=source_relative,features=unmarshal+unmarshal_unsafe bid.proto

// Protobuf routes. Two are google.golang.org/protobuf's proto.Unmarshal:
// into the protoc-gen-go types of bid.proto (Bid, BidWide), and into a
// dynamicpb message of the same descriptor, read back field by field
// through protoreflect (what a consumer without generated code does). The
// third is planetscale/vtprotobuf's generated unmarshaler into the same
// types, what a Go engineer who cares about decode speed generates:
// straight-line code per field, no reflection. bid.pb.go and
// bid_vtproto.pb.go are checked in; go generate needs protoc,
// protoc-gen-go v1.36.12 and protoc-gen-go-vtproto v0.6.0.

// protoGen unmarshals into the generated Bid or BidWide.
type protoGen struct {
	builders
	bid  *Bid
	wide *BidWide
	opts proto.UnmarshalOptions
}

func newProtoGen(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	wide, err := checkSchema(s)
	if err != nil {
		return nil, err
	}
	d := &protoGen{builders: newBuilders(s, mem)}
	if wide {
		d.wide = new(BidWide)
	} else {
		d.bid = new(Bid)
	}
	return d, nil
}

func (d *protoGen) Append(msg []byte) error {
	if d.wide == nil {
		m := d.bid
		if err := d.opts.Unmarshal(msg, m); err != nil {
			return parseErr(LibProtoGen, err)
		}
		d.appendBid(&bidFields{m.Auction, m.Bidder, m.Price, m.Channel, m.Url, m.DateTime, m.Extra})
		return nil
	}
	m := d.wide
	if err := d.opts.Unmarshal(msg, m); err != nil {
		return parseErr(LibProtoGen, err)
	}
	d.appendBid(&bidFields{m.Auction, m.Bidder, m.Price, m.Channel, m.Url, m.DateTime, m.Extra})
	d.appendWide(&wideFields{m.Seller, m.Category, m.Reserve, m.InitialBid, m.ItemName, m.City, m.State, m.Email})
	return nil
}

func (d *protoGen) NewRecordBatch() (arrow.RecordBatch, error) { return d.batch() }

// dynamicPB unmarshals into a dynamicpb.Message and reads its fields.
type dynamicPB struct {
	builders
	msg    *dynamicpb.Message
	fields []protoreflect.FieldDescriptor // by column
}

func newDynamicPB(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	wide, err := checkSchema(s)
	if err != nil {
		return nil, err
	}
	var desc protoreflect.MessageDescriptor = (&Bid{}).ProtoReflect().Descriptor()
	if wide {
		desc = (&BidWide{}).ProtoReflect().Descriptor()
	}
	d := &dynamicPB{builders: newBuilders(s, mem), msg: dynamicpb.NewMessage(desc)}
	for i := range s.NumColumns() {
		d.fields = append(d.fields, desc.Fields().ByNumber(protoreflect.FieldNumber(i+1)))
	}
	return d, nil
}

func (d *dynamicPB) Append(msg []byte) error {
	if err := proto.Unmarshal(msg, d.msg); err != nil {
		return parseErr(LibDynamicPB, err)
	}
	for i, fd := range d.fields {
		v := d.msg.Get(fd)
		switch {
		case d.ints[i] != nil:
			d.ints[i].Append(v.Int())
		case d.ts[i] != nil:
			d.ts[i].Append(arrow.Timestamp(v.Int()))
		default:
			d.strs[i].Append(v.String())
		}
	}
	return nil
}

func (d *dynamicPB) NewRecordBatch() (arrow.RecordBatch, error) { return d.batch() }

// vtProto unmarshals with vtprotobuf's UnmarshalVTUnsafe into the generated
// Bid or BidWide: its fastest unmarshaler, whose strings alias the message
// (the row is appended before the next message) and are not checked for
// valid UTF-8. UnmarshalVT merges into the message, so each message starts
// from a zero one, as proto.Unmarshal's reset does.
type vtProto struct {
	builders
	wide bool
	bid  Bid
	bw   BidWide
}

func newVTProto(s *workloads.Schema, mem memory.Allocator) (Decoder, error) {
	wide, err := checkSchema(s)
	if err != nil {
		return nil, err
	}
	return &vtProto{builders: newBuilders(s, mem), wide: wide}, nil
}

func (d *vtProto) Append(msg []byte) error {
	if !d.wide {
		m := &d.bid
		m.Reset()
		if err := m.UnmarshalVTUnsafe(msg); err != nil {
			return parseErr(LibVTProto, err)
		}
		d.appendBid(&bidFields{m.Auction, m.Bidder, m.Price, m.Channel, m.Url, m.DateTime, m.Extra})
		return nil
	}
	m := &d.bw
	m.Reset()
	if err := m.UnmarshalVTUnsafe(msg); err != nil {
		return parseErr(LibVTProto, err)
	}
	d.appendBid(&bidFields{m.Auction, m.Bidder, m.Price, m.Channel, m.Url, m.DateTime, m.Extra})
	d.appendWide(&wideFields{m.Seller, m.Category, m.Reserve, m.InitialBid, m.ItemName, m.City, m.State, m.Email})
	return nil
}

func (d *vtProto) NewRecordBatch() (arrow.RecordBatch, error) { return d.batch() }
