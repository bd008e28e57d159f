// Round trips of every idtypes type through pgjdbc (Debian's libpostgresql-jdbc-java), plain JDBC as a
// Java application uses it. pgjdbc sends setString as varchar, which no idtypes operator takes, so there are
// two recipes, each checked: the URL property stringtype=unspecified (strings go untyped, the server reads
// them as the column's type; getString reads the text), and, without it, setObject/getObject with a
// PGobject naming the type. Per type: the column DEFAULT, = ANY(?) with createArrayOf, ^@, <@ tstzrange(?, ?)
// from OffsetDateTime, keyset pagination. Reads the IDs from the table `samples` (samples.sql); connects
// over the cluster's unix socket (PGHOST, PGPORT, PGUSER, PGDATABASE) through junixsocket's socket factory.
// Prints `ok` / `FAIL` lines; exits 1 on a failure.
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.postgresql.util.PGobject;

public class JdbcRound {
    static final String[][] TYPES = {{"timeid", "13"}, {"tbsl", "20"}, {"uid11", "11"}, {"scru160", "32"}};
    static boolean failed = false;

    static void check(String name, Callable<String> fn) {
        try {
            System.out.println("ok   jdbc " + name + ": " + fn.call());
        } catch (Exception e) {
            failed = true;
            String m = String.valueOf(e.getMessage());
            System.out.println("FAIL jdbc " + name + ": " + e.getClass().getSimpleName() + ": " + m.substring(0, Math.min(600, m.length())));
        }
    }

    static void same(String what, Object got, Object want) {
        if (!Objects.equals(got, want)) {
            String g = String.valueOf(got), w = String.valueOf(want);
            throw new AssertionError(what + ": got " + g.substring(0, Math.min(300, g.length())) + ", expected "
                    + w.substring(0, Math.min(300, w.length())));
        }
    }

    static Connection connect(String properties) throws SQLException {
        String socket = System.getenv("PGHOST") + "/.s.PGSQL." + System.getenv("PGPORT");
        return DriverManager.getConnection("jdbc:postgresql://localhost/" + System.getenv("PGDATABASE")
                + "?user=" + System.getenv("PGUSER")
                + "&socketFactory=org.newsclub.net.unix.AFUNIXSocketFactory$FactoryArg&socketFactoryArg=" + socket
                + properties);
    }

    // The first column of every row, read with getString; parameters set with setObject.
    static List<String> column(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) ps.setObject(i + 1, args[i]);
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) out.add(rs.getString(1));
            }
            return out;
        }
    }

    static PGobject pg(String type, String text) throws SQLException {
        PGobject o = new PGobject();
        o.setType(type);
        o.setValue(text);
        return o;
    }

    static List<String> sorted(List<String> ids) {
        List<String> s = new ArrayList<>(ids);
        s.sort(null); // String order is UTF-16 code units: for these ASCII IDs, the types' byte order
        return s;
    }

    // Samples and IDs the DEFAULT made, in one table per type and recipe.
    static void round(Connection c, String t, int width, List<String> ids) throws SQLException {
        String table = "jdbc_" + t;
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE " + table + " (id " + t + " PRIMARY KEY DEFAULT " + t + "_generate(), n int)");
        }
        List<String> all = new ArrayList<>(ids);

        check(t + " stringtype=unspecified: insert with the column DEFAULT and with setString, read back", () -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
                for (int n = 0; n < ids.size(); n++) {
                    ps.setString(1, ids.get(n));
                    ps.setInt(2, n);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            same("rows", column(c, "SELECT id FROM " + table + " ORDER BY n"), ids);
            try (PreparedStatement ps = c.prepareStatement("SELECT n FROM " + table + " WHERE id = ?")) {
                for (int n = 0; n < ids.size(); n++) {
                    ps.setString(1, ids.get(n));
                    try (ResultSet rs = ps.executeQuery()) {
                        same(ids.get(n), rs.next() ? rs.getInt(1) : -1, n);
                    }
                }
            }
            for (int n = 1000; n < 1003; n++) {
                String id = column(c, "INSERT INTO " + table + " (n) VALUES (?) RETURNING id", n).get(0);
                same("the DEFAULT's " + id, column(c, "SELECT n FROM " + table + " WHERE id = ?", id), List.of(String.valueOf(n)));
                same("its width", id.length(), width);
                all.add(id);
            }
            return ids.size() + " IDs inserted by setString, read back by getString, looked up; 3 from the DEFAULT, e.g. " + all.get(all.size() - 1);
        });

        check(t + " id = ANY(?) with createArrayOf", () -> {
            List<String> want = new ArrayList<>();
            for (int i = 0; i < ids.size(); i += 7) want.add(ids.get(i));
            List<String> asked = new ArrayList<>(want);
            asked.addAll(column(c, "SELECT " + t + "_generate()::text")); // a new ID: in no row
            Array array = c.createArrayOf(t, asked.toArray());
            List<String> got = column(c, "SELECT id FROM " + table + " WHERE id = ANY(?) ORDER BY id", array);
            same("rows", got, sorted(want));
            return got.size() + " of " + asked.size() + " IDs asked (one absent) found, in a " + t + "[] parameter";
        });

        check(t + " id ^@ ?", () -> {
            String mid = ids.get(75);
            List<String> counts = new ArrayList<>();
            for (int k : new int[] {0, 1, 2, 3, 4, 6, width}) {
                String p = mid.substring(0, k);
                List<String> want = new ArrayList<>();
                for (String id : sorted(all)) if (id.startsWith(p)) want.add(id);
                List<String> got = column(c, "SELECT id FROM " + table + " WHERE id ^@ ? ORDER BY id", p);
                same("prefix '" + p + "'", got, want);
                counts.add(String.valueOf(got.size()));
            }
            return "prefixes of " + mid + " match " + String.join(", ", counts) + " rows, as startsWith says";
        });

        check(t + " id <@ tstzrange(?, ?)", () -> {
            OffsetDateTime lo = OffsetDateTime.of(2024, 1, 2, 0, 0, 0, 0, ZoneOffset.UTC), hi = lo.plusDays(1);
            List<String> got = column(c, "SELECT id FROM " + table + " WHERE id <@ tstzrange(?, ?) ORDER BY id", lo, hi);
            List<String> want = column(c, "SELECT id FROM " + table
                    + " WHERE id::timestamptz >= ? AND id::timestamptz < ? ORDER BY id", lo, hi);
            same("window", got, want);
            if (got.isEmpty() || got.size() >= ids.size()) throw new AssertionError(got.size() + " rows");
            return got.size() + " of " + all.size() + " IDs in a one-day window of OffsetDateTime parameters";
        });

        check(t + " keyset pagination", () -> {
            List<String> seen = new ArrayList<>();
            List<String> page = column(c, "SELECT id FROM " + table + " ORDER BY id LIMIT 10");
            int pages = 1;
            for (; !page.isEmpty(); pages++) {
                seen.addAll(page);
                page = column(c, "SELECT id FROM " + table + " WHERE id > ? ORDER BY id LIMIT 10", seen.get(seen.size() - 1));
            }
            same("pages", seen, sorted(all));
            return pages + " pages of 10 walk all " + seen.size() + " IDs once, in text order";
        });
    }

    // Without stringtype=unspecified: PGobject both ways; and what a plain setString gets.
    static void pgobjectRound(Connection c, String t, List<String> ids) throws SQLException {
        String table = "jdbc_" + t + "_pgobject";
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE " + table + " (id " + t + " PRIMARY KEY DEFAULT " + t + "_generate(), n int)");
        }
        check(t + " PGobject: setObject and getObject", () -> {
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)");
                 PreparedStatement get = c.prepareStatement("SELECT id, n FROM " + table + " WHERE id = ?")) {
                for (int n = 0; n < ids.size(); n++) {
                    ins.setObject(1, pg(t, ids.get(n)));
                    ins.setInt(2, n);
                    ins.executeUpdate();
                    get.setObject(1, pg(t, ids.get(n)));
                    try (ResultSet rs = get.executeQuery()) {
                        if (!rs.next()) throw new AssertionError(ids.get(n) + " not found");
                        Object o = rs.getObject(1);
                        if (!(o instanceof PGobject)) throw new AssertionError("getObject gave " + o.getClass());
                        same("type", ((PGobject) o).getType(), t);
                        same("value", ((PGobject) o).getValue(), ids.get(n));
                        same("n", rs.getInt(2), n);
                    }
                }
            }
            Object generated;
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("INSERT INTO " + table + " (n) VALUES (-1) RETURNING id")) {
                rs.next();
                generated = rs.getObject(1);
            }
            same("the DEFAULT's ID as a PGobject", generated instanceof PGobject ? ((PGobject) generated).getType() : generated, t);
            return ids.size() + " PGobjects of type " + t + " inserted, looked up and read back as PGobject; the DEFAULT's "
                    + ((PGobject) generated).getValue() + " too";
        });
        check(t + " setString without stringtype=unspecified is refused (42883)", () -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT n FROM " + table + " WHERE id = ?")) {
                ps.setString(1, ids.get(0));
                ps.executeQuery().close();
                throw new AssertionError("accepted");
            } catch (SQLException e) {
                same("SQLSTATE", e.getSQLState(), "42883");
                return e.getMessage().split("\n")[0];
            }
        });
    }

    public static void main(String[] args) throws Exception {
        try (Connection plain = connect(""); Connection unspecified = connect("&stringtype=unspecified")) {
            System.out.println("ok   jdbc set-up: pgjdbc " + plain.getMetaData().getDriverVersion()
                    + ", one connection with stringtype=unspecified, one without");
            for (String[] type : TYPES) {
                String t = type[0];
                List<String> ids = column(plain, "SELECT id FROM samples WHERE type = ? ORDER BY id COLLATE \"C\"", t);
                if (ids.size() < 150) throw new AssertionError("only " + ids.size() + " samples of " + t);
                round(unspecified, t, Integer.parseInt(type[1]), ids);
                pgobjectRound(plain, t, ids);
            }
        }
        System.exit(failed ? 1 : 0);
    }
}
