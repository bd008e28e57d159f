// GORM v1 1.9 (Debian's golang-github-jinzhu-gorm-dev, over lib/pq): the schema round trip, then the round of
// the other tools per type (see ../round.mjs). The tables come from AutoMigrate over models with the ID
// types of idtypes.go; GORM v1 has no schema dump, so the round trip reads the columns back from the catalog
// and runs AutoMigrate again, which must send no statement that changes a table. Built in GOPATH mode over
// Debian's sources (run.sh); connects with PGHOST etc. Prints `ok` / `FAIL`.
package main

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/jinzhu/gorm"
	_ "github.com/jinzhu/gorm/dialects/postgres"
	"github.com/lib/pq"
)

type GormTimeid struct {
	ID TimeID `gorm:"primary_key;default:timeid_generate()"`
	N  int    `gorm:"not null"`
}
type GormTbsl struct {
	ID TBSL `gorm:"primary_key;default:tbsl_generate()"`
	N  int  `gorm:"not null"`
}
type GormUid11 struct {
	ID UID11 `gorm:"primary_key;default:uid11_generate()"`
	N  int   `gorm:"not null"`
}
type GormScru160 struct {
	ID SCRU160 `gorm:"primary_key;default:scru160_generate()"`
	N  int     `gorm:"not null"`
}

// a row of any of the tables, for the reads (db.Table names the table)
type row struct {
	ID string
	N  int
}

var failed bool

func check(name string, fn func() (string, error)) {
	said, err := fn()
	if err != nil {
		failed = true
		fmt.Printf("FAIL gorm %s: %v\n", name, err)
		return
	}
	fmt.Printf("ok   gorm %s: %s\n", name, said)
}

func same(what string, got, want interface{}) error {
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("%s: got %.300v, expected %.300v", what, got, want)
	}
	return nil
}

// statements is a gorm logger keeping the SQL it is given
type statements []string

func (s *statements) Print(v ...interface{}) {
	if len(v) > 3 && v[0] == "sql" {
		*s = append(*s, fmt.Sprint(v[3]))
	}
}

var codecs = map[string]struct {
	alphabet string
	width    int
}{
	"timeid": {"234567abcdefghijklmnopqrstuvwxyz", 13}, "tbsl": {"0123456789ABCDEF", 20},
	"uid11":   {"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 11},
	"scru160": {"0123456789ABCDEFGHIJKLMNOPQRSTUV", 32},
}

func main() {
	db, err := gorm.Open("postgres", "sslmode=disable")
	if err != nil {
		fmt.Println("FAIL gorm connecting:", err)
		os.Exit(1)
	}
	defer db.Close()
	db.SingularTable(true) // the tables are gorm_timeid etc., not gorm_timeids
	db.LogMode(false)      // errors come back to the checks, not printed
	types := []string{"timeid", "tbsl", "uid11", "scru160"}
	models := []interface{}{&GormTimeid{}, &GormTbsl{}, &GormUid11{}, &GormScru160{}}
	// insert with the DEFAULT: the model of each type, its ID read back
	insertDefault := map[string]func(n int) (string, error){
		"timeid": func(n int) (string, error) {
			m := GormTimeid{N: n}
			err := db.Create(&m).Error
			return string(m.ID), err
		},
		"tbsl": func(n int) (string, error) { m := GormTbsl{N: n}; err := db.Create(&m).Error; return string(m.ID), err },
		"uid11": func(n int) (string, error) {
			m := GormUid11{N: n}
			err := db.Create(&m).Error
			return string(m.ID), err
		},
		"scru160": func(n int) (string, error) {
			m := GormScru160{N: n}
			err := db.Create(&m).Error
			return string(m.ID), err
		},
	}

	// what AutoMigrate sends, through a logger of its own
	autoMigrate := func() ([]string, error) {
		var log statements
		logged := db.New()
		logged.SetLogger(&log)
		logged.LogMode(true)
		err := logged.AutoMigrate(models...).Error
		return log, err
	}
	check("AutoMigrate, then the tables", func() (string, error) {
		log, err := autoMigrate()
		if err != nil {
			return "", err
		}
		if err := same("statements", len(log), len(types)); err != nil {
			return "", err
		}
		for i, t := range types {
			if !strings.Contains(log[i], fmt.Sprintf(`"id" %s DEFAULT %s_generate()`, t, t)) {
				return "", fmt.Errorf("sent %s", log[i])
			}
		}
		for _, t := range types {
			var cols []string
			err := db.Raw(`SELECT concat_ws(' ', attname, format_type(atttypid, atttypmod), attnotnull, pg_get_expr(adbin, adrelid))
				FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
				WHERE attrelid = ?::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`, "gorm_"+t).Pluck("concat_ws", &cols).Error
			if err != nil {
				return "", err
			}
			if err := same(t, cols, []string{fmt.Sprintf("id %s t %s_generate()", t, t), "n integer t"}); err != nil {
				return "", err
			}
		}
		return fmt.Sprintf("%d CREATE TABLE with the type and the DEFAULT, e.g. %s", len(types), log[0]), nil
	})
	check("AutoMigrate again: nothing to change", func() (string, error) {
		log, err := autoMigrate()
		if err == nil {
			err = same("statements", log, []string(nil))
		}
		return "no statement sent (GORM v1 only adds what is missing)", err
	})

	for _, typ := range types {
		table, codec := "gorm_"+typ, codecs[typ]
		var ids []string
		db.Raw(`SELECT id FROM samples WHERE type = ? ORDER BY id COLLATE "C"`, typ).Pluck("id", &ids)
		sorted := append([]string(nil), ids...)
		sort.Strings(sorted)
		var pick []string
		for i, id := range ids {
			if i%7 == 0 {
				pick = append(pick, id)
			}
		}
		wantPick := append([]string(nil), pick...)
		sort.Strings(wantPick)
		absent := strings.Repeat(codec.alphabet[:1], codec.width-1) + codec.alphabet[1:2]
		asked := append(append([]string(nil), pick...), absent)
		idsWhere := func(query string, args ...interface{}) ([]string, error) {
			var got []string
			err := db.Table(table).Where(query, args...).Order("id").Pluck("id", &got).Error
			return got, err
		}
		nOf := func(id string) (int, error) {
			var r row
			err := db.Table(table).Where("id = ?", id).First(&r).Error
			return r.N, err
		}

		check(typ+" insert with explicit IDs, read back", func() (string, error) {
			if len(ids) < 150 {
				return "", fmt.Errorf("only %d samples", len(ids))
			}
			for n, id := range ids {
				if err := db.Table(table).Create(&row{ID: id, N: n}).Error; err != nil {
					return "", err
				}
			}
			var rows []row
			if err := db.Table(table).Order("n").Find(&rows).Error; err != nil {
				return "", err
			}
			got := make([]string, len(rows))
			for i, r := range rows {
				got[i] = r.ID
			}
			return fmt.Sprintf("%d IDs back as the same strings", len(got)), same("rows", got, ids)
		})
		check(typ+" id = ?", func() (string, error) {
			for want, id := range ids {
				n, err := nOf(id)
				if err == nil {
					err = same(id, n, want)
				}
				if err != nil {
					return "", err
				}
			}
			return fmt.Sprintf("%d lookups, each its row", len(ids)), nil
		})
		check(typ+" id IN (?) and id = ANY(?) with pq.Array", func() (string, error) {
			in, err := idsWhere("id IN (?)", asked)
			if err == nil {
				err = same("IN", in, wantPick)
			}
			if err != nil {
				return "", err
			}
			// a []string would be expanded to a list (`ANY($1,$2)`, a syntax error); pq.Array is one array
			anyOf, err := idsWhere("id = ANY(?)", pq.Array(asked))
			if err == nil {
				err = same("= ANY", anyOf, wantPick)
			}
			return fmt.Sprintf("%d of %d IDs asked (one absent) found both ways", len(in), len(asked)), err
		})
		check(typ+" id ^@ ?", func() (string, error) {
			var counts []string
			for _, k := range []int{1, 2, 4, codec.width} {
				p := ids[75][:k]
				got, err := idsWhere("id ^@ ?", p)
				var want []string
				for _, id := range sorted {
					if strings.HasPrefix(id, p) {
						want = append(want, id)
					}
				}
				if err == nil {
					err = same("prefix "+p, got, want)
				}
				if err != nil {
					return "", err
				}
				counts = append(counts, fmt.Sprint(len(got)))
			}
			return fmt.Sprintf("prefixes of %s match %s rows", ids[75], strings.Join(counts, ", ")), nil
		})
		check(typ+" id <@ tstzrange(time.Time, time.Time)", func() (string, error) {
			from, to := time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), time.Date(2024, 1, 3, 0, 0, 0, 0, time.UTC)
			got, err := idsWhere("id <@ tstzrange(?, ?)", from, to)
			if err != nil {
				return "", err
			}
			want, err := idsWhere("id::timestamptz >= ? AND id::timestamptz < ?", from, to)
			if err == nil {
				err = same("window", got, want)
			}
			if err == nil && !(len(got) > 0 && len(got) < len(ids)) {
				err = fmt.Errorf("%d rows", len(got))
			}
			return fmt.Sprintf("%d of %d IDs in a one-day window", len(got), len(ids)), err
		})
		check(typ+" keyset pages", func() (string, error) {
			var seen, page []string
			pages := 1
			err := db.Table(table).Order("id").Limit(10).Pluck("id", &page).Error
			for ; err == nil && len(page) > 0; pages++ {
				seen = append(seen, page...)
				page = nil
				err = db.Table(table).Where("id > ?", seen[len(seen)-1]).Order("id").Limit(10).Pluck("id", &page).Error
			}
			if err == nil {
				err = same("pages", seen, sorted)
			}
			return fmt.Sprintf("%d pages of 10 walk all %d IDs once, in order", pages, len(seen)), err
		})
		check(typ+" the ID's time as a time.Time", func() (string, error) {
			rows, err := db.Raw(`SELECT id, to_char(id::`+typ+`::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
				FROM samples WHERE type = ? AND id::`+typ+`::timestamptz > '2000-01-01' ORDER BY id LIMIT 5`, typ).Rows()
			if err != nil {
				return "", err
			}
			defer rows.Close()
			count := 0
			for rows.Next() {
				var id, want string
				var got time.Time
				rows.Scan(&id, &want)
				if err := db.Table(table).Select(typ+"_timestamp(id)").Where("id = ?", id).Row().Scan(&got); err != nil {
					return "", err
				}
				if err := same(id, got.UTC().Format("2006-01-02T15:04:05.000000Z"), want); err != nil {
					return "", err
				}
				count++
			}
			return fmt.Sprintf("%d IDs' times scanned into time.Time equal to the server's, to the microsecond", count), nil
		})
		check(typ+" insert with the column DEFAULT, ID back by RETURNING", func() (string, error) {
			var id string
			for _, n := range []int{1001, 1002, 1003} {
				var err error
				if id, err = insertDefault[typ](n); err != nil {
					return "", err
				}
				if len(id) != codec.width {
					return "", fmt.Errorf("returned %q", id)
				}
				got, err := nOf(id)
				if err == nil {
					err = same(id, got, n)
				}
				if err != nil {
					return "", err
				}
			}
			return fmt.Sprintf("3 IDs from %s_generate() found again by id, e.g. %s", typ, id), nil
		})
	}
	if failed {
		os.Exit(1)
	}
}
