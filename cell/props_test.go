package cell_test

import (
	"reflect"
	"testing"

	"github.com/fastpathlab/fplab/cell"
)

func TestParseProps(t *testing.T) {
	got, err := cell.ParseProps([]string{
		"security.protocol=SASL_SSL",
		" sasl.mechanism =SCRAM-SHA-512",
		"sasl.jaas.config=a=b;c=d",
		"empty.value=",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"security.protocol": "SASL_SSL",
		"sasl.mechanism":    "SCRAM-SHA-512",
		"sasl.jaas.config":  "a=b;c=d",
		"empty.value":       "",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseProps = %v, want %v", got, want)
	}
}

func TestParsePropsErrors(t *testing.T) {
	cases := []struct {
		kvs  []string
		want string
	}{
		{[]string{"a=1", "novalue"}, `cluster prop #2 "novalue" is not key=value`},
		{[]string{"=x"}, "cluster prop #1 has an empty key"},
		{[]string{"a=1", "a=2"}, `cluster prop "a" given twice`},
		{[]string{"sasl.password:hunter2"}, "cluster prop #1 (REDACTED) is not key=value"},
	}
	for _, c := range cases {
		_, err := cell.ParseProps(c.kvs)
		if err == nil || err.Error() != c.want {
			t.Errorf("cell.ParseProps(%q) = %v, want %q", c.kvs, err, c.want)
		}
	}
}

func TestBadBootstrapLists(t *testing.T) {
	for _, list := range []string{"", " , ", "nohost", "host:", ":9092"} {
		if _, err := cell.ParseBootstrap(list); err == nil {
			t.Errorf("ParseBootstrap(%q) succeeded", list)
		}
	}
	got, err := cell.ParseBootstrap(" a:1, ,b:2")
	if err != nil || !reflect.DeepEqual(got, []string{"a:1", "b:2"}) {
		t.Errorf("ParseBootstrap = %v, %v", got, err)
	}
}
