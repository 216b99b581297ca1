package crc

import "encoding/binary"

// castagnoliPoly is the reversed CRC32C polynomial (0x1EDC6F41 reflected).
const castagnoliPoly = 0x82F63B78

// Slicing8 is a software CRC32C using eight 256-entry tables: it folds
// eight input bytes per step with eight table look-ups, the classic
// portable fast path (and what librdkafka runs without SSE4.2).
type Slicing8 struct {
	tab [8][256]uint32
}

// NewSlicing8 builds the tables.
func NewSlicing8() *Slicing8 {
	s := &Slicing8{}
	for i := range 256 {
		c := uint32(i)
		for range 8 {
			if c&1 != 0 {
				c = c>>1 ^ castagnoliPoly
			} else {
				c >>= 1
			}
		}
		s.tab[0][i] = c
	}
	for i := range 256 {
		c := s.tab[0][i]
		for k := 1; k < 8; k++ {
			c = s.tab[0][c&0xff] ^ c>>8
			s.tab[k][i] = c
		}
	}
	return s
}

// Update returns the CRC32C of p appended to data whose CRC32C is crc, as
// hash/crc32.Update does.
func (s *Slicing8) Update(crc uint32, p []byte) uint32 {
	c := ^crc
	for len(p) >= 8 {
		lo := binary.LittleEndian.Uint32(p) ^ c
		hi := binary.LittleEndian.Uint32(p[4:])
		c = s.tab[7][lo&0xff] ^ s.tab[6][lo>>8&0xff] ^ s.tab[5][lo>>16&0xff] ^ s.tab[4][lo>>24] ^
			s.tab[3][hi&0xff] ^ s.tab[2][hi>>8&0xff] ^ s.tab[1][hi>>16&0xff] ^ s.tab[0][hi>>24]
		p = p[8:]
	}
	for _, b := range p {
		c = s.tab[0][byte(c)^b] ^ c>>8
	}
	return ^c
}

// Checksum returns the CRC32C of p.
func (s *Slicing8) Checksum(p []byte) uint32 { return s.Update(0, p) }
