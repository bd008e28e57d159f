# ActiveRecord 6.1 (Debian's ruby-activerecord, ruby-pg): the schema round trip, then the round of the other
# tools per type (see round.mjs). The tables come from a migration (create_table ... id: :timeid, default:
# -> { "timeid_generate()" }). Without activerecord/idtypes.rb every query warns "unknown OID" and
# db:schema:dump (ActiveRecord::SchemaDumper, what the task calls) leaves the tables out; with it the warning
# is gone, schema.rb keeps the type and the DEFAULT, loaded into a new database it makes the same tables and
# dumps the same again; structure.sql (pg_dump, the other format) keeps them too. Connects with PGHOST etc.;
# makes and drops a second database of its own. Prints `ok` / `FAIL`.
require "active_record"
require "stringio"

TYPES = %w[timeid tbsl uid11 scru160].freeze
CODECS = { "timeid" => ["234567abcdefghijklmnopqrstuvwxyz", 13], "tbsl" => ["0123456789ABCDEF", 20],
           "uid11" => ["123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz", 11],
           "scru160" => ["0123456789ABCDEFGHIJKLMNOPQRSTUV", 32] }.freeze
$failed = false

def check(name)
  puts "ok   activerecord #{name}: #{yield}"
rescue StandardError => e
  $failed = true
  puts "FAIL activerecord #{name}: #{e.message.lines.first(6).join(' | ').gsub("\n", '')}"
end

def same(what, got, want)
  raise "#{what}: got #{got.inspect[0, 300]}, expected #{want.inspect[0, 300]}" unless got == want
end

def connect(database)
  ActiveRecord::Base.establish_connection(adapter: "postgresql", host: ENV["PGHOST"], port: ENV["PGPORT"],
                                          username: ENV["PGUSER"], database: database)
  ActiveRecord::Base.connection
end

# what Kernel#warn printed (ActiveRecord's "unknown OID" goes there) while the block ran
def warnings
  saved, $stderr = $stderr, StringIO.new
  yield
  $stderr.string
ensure
  $stderr = saved
end

def schema_rb
  io = StringIO.new
  ActiveRecord::SchemaDumper.dump(ActiveRecord::Base.connection, io)
  io.string
end

def columns(table)
  ActiveRecord::Base.connection.select_rows(<<~SQL)
    SELECT attname, format_type(atttypid, atttypmod), attnotnull, pg_get_expr(adbin, adrelid)
    FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
    WHERE attrelid = '#{table}'::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum
  SQL
end

def want_columns(type) = [["id", type, true, "#{type}_generate()"], ["n", "integer", true, nil]]

class CreateIdTables < ActiveRecord::Migration[6.1]
  def change
    TYPES.each do |type|
      create_table "activerecord_#{type}", id: type.to_sym, default: -> { "#{type}_generate()" } do |t|
        t.integer :n, null: false
      end
    end
  end
end

database = ENV.fetch("PGDATABASE")
second = "#{database}_schema"
models = TYPES.to_h { |type| [type, Class.new(ActiveRecord::Base) { self.table_name = "activerecord_#{type}" }] }

connect(database)
ActiveRecord::Migration.verbose = false
check("migration, then the tables without activerecord/idtypes.rb") do
  CreateIdTables.migrate(:up)
  TYPES.each { |type| same(type, columns("activerecord_#{type}"), want_columns(type)) }
  dump = nil
  said = warnings { models["timeid"].first; dump = schema_rb }
  raise "no warning" unless said.include?("unknown OID") && said.include?("failed to recognize type of 'id'")
  raise dump unless dump.include?("Unknown type 'timeid' for column 'id'") && !dump.include?('create_table "activerecord_timeid"')
  "#{TYPES.size} tables with the type and the DEFAULT; unregistered, a query warns \"#{said.strip[0, 60]}...\" and schema.rb leaves the tables out"
end

require_relative "activerecord/idtypes"
ActiveRecord::Base.connection_pool.disconnect!
connect(database)
dump = nil
check("with activerecord/idtypes.rb: no warning, schema.rb keeps the tables") do
  said = warnings { models.each_value { |m| m.reset_column_information; m.first } }
  same("warnings", said, "")
  dump = schema_rb
  TYPES.each do |type|
    line = %(create_table "activerecord_#{type}", id: :#{type}, default: -> { "#{type}_generate()" }, force: :cascade do |t|)
    raise "#{type}: #{dump}" unless dump.include?(line)
  end
  raise "idtypes' own relations in schema.rb: #{dump}" if dump.match?(/high_water|idtypes_internal|idtypes_adopt/)
  'create_table "activerecord_timeid", id: :timeid, default: -> { "timeid_generate()" }, ... for each type; ' \
    "nothing of idtypes' own (no ignore_tables needed)"
end
check("schema.rb loaded into a new database: the same tables, the same dump") do
  ActiveRecord::Base.connection.execute("CREATE DATABASE #{second} TEMPLATE template0")
  connect(second)
  ActiveRecord::Base.connection.execute("CREATE EXTENSION idtypes")
  ActiveRecord::Schema.verbose = false
  eval(dump) # rubocop:disable Security/Eval -- what db:schema:load does with schema.rb
  TYPES.each { |type| same(type, columns("activerecord_#{type}"), want_columns(type)) }
  same("dumped again", schema_rb.sub(/version: \S+/, ""), dump.sub(/version: \S+/, ""))
  "#{TYPES.size} tables with the type and the DEFAULT, schema.rb dumped again unchanged"
ensure
  connect(database)
  ActiveRecord::Base.connection.execute("DROP DATABASE IF EXISTS #{second} WITH (FORCE)")
end
check("structure.sql (db:schema:dump with schema_format :sql)") do
  path = File.join(ARGV.fetch(0), "structure.sql")
  ActiveRecord::Tasks::DatabaseTasks.structure_dump(ActiveRecord::Base.connection_db_config, path)
  sql = File.read(path)
  TYPES.each { |type| raise "#{type}: #{sql}" unless sql.include?("id public.#{type} DEFAULT public.#{type}_generate() NOT NULL") }
  "pg_dump keeps id public.timeid DEFAULT public.timeid_generate() NOT NULL, for each type"
end

TYPES.each do |type|
  model = models[type]
  alphabet, width = CODECS[type]
  ids = model.connection.select_values("SELECT id FROM samples WHERE type = '#{type}' ORDER BY id COLLATE \"C\"")
  sorted = ids.sort
  pick = ids.each_with_index.select { |_, i| (i % 7).zero? }.map(&:first)
  absent = alphabet[0] * (width - 1) + alphabet[1]
  check("#{type} insert with explicit IDs, read back") do
    raise "only #{ids.size} samples" if ids.size < 150
    ids.each_with_index { |id, n| model.create!(id: id, n: n) }
    rows = model.order(:n).to_a
    raise "ids read as #{rows[0].id.class}" unless rows.all? { |r| r.id.is_a?(String) }
    same("rows", rows.map(&:id), ids)
    "#{rows.size} IDs back as the same Strings"
  end
  check("#{type} id = ?") do
    ids.each_with_index { |id, n| same(id, model.find(id).n, n) }
    "#{ids.size} lookups with find, each its row"
  end
  check("#{type} id IN (...) and id = ANY(ARRAY[?]::#{type}[])") do
    same("IN", model.where(id: pick + [absent]).order(:id).pluck(:id), pick.sort)
    # a bare ANY(?) gets the list `'a','b'` (a syntax error): ARRAY[?] makes it one array of the type
    same("= ANY", model.where("id = ANY(ARRAY[?]::#{type}[])", pick + [absent]).order(:id).pluck(:id), pick.sort)
    "#{pick.size} of #{pick.size + 1} IDs asked (one absent) found both ways"
  end
  check("#{type} id ^@ ?") do
    counts = [1, 2, 4, width].map do |k|
      p = ids[75][0, k]
      got = model.where("id ^@ ?", p).order(:id).pluck(:id)
      same("prefix #{p}", got, sorted.select { |id| id.start_with?(p) })
      got.size
    end
    "prefixes of #{ids[75]} match #{counts.join(', ')} rows"
  end
  check("#{type} id <@ tstzrange(Time, Time)") do
    from, to = Time.utc(2024, 1, 2), Time.utc(2024, 1, 3)
    got = model.where("id <@ tstzrange(?, ?)", from, to).order(:id).pluck(:id)
    want = model.where("id::timestamptz >= ? AND id::timestamptz < ?", from, to).order(:id).pluck(:id)
    same("window", got, want)
    raise "#{got.size} rows" unless got.size.positive? && got.size < ids.size
    "#{got.size} of #{ids.size} IDs in a one-day window"
  end
  check("#{type} keyset pages") do
    seen = []
    page = model.order(:id).limit(10).pluck(:id)
    pages = 1
    until page.empty?
      seen.concat(page)
      page = model.where("id > ?", seen.last).order(:id).limit(10).pluck(:id)
      pages += 1
    end
    same("pages", seen, sorted)
    "#{pages} pages of 10 walk all #{seen.size} IDs once, in order"
  end
  check("#{type} the ID's time as a Time") do
    rows = model.connection.select_rows(<<~SQL)
      SELECT id, to_char(id::#{type}::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
      FROM samples WHERE type = '#{type}' AND id::#{type}::timestamptz > '2000-01-01' ORDER BY id LIMIT 5
    SQL
    rows.each do |id, want|
      got = model.where(id: id).pick(Arel.sql("#{type}_timestamp(id)"))
      raise "#{id}: #{got.class}, not a Time" unless got.is_a?(Time)
      same(id, got.utc.strftime("%Y-%m-%dT%H:%M:%S.%6NZ"), want)
    end
    "#{rows.size} IDs' times read as Times equal to the server's, to the microsecond"
  end
  check("#{type} insert with the column DEFAULT, ID back by RETURNING") do
    got = [1001, 1002, 1003].map do |n|
      id = model.create!(n: n).id
      raise "returned #{id.inspect}" unless id.is_a?(String) && id.size == width
      same(id, model.find(id).n, n)
      id
    end
    "3 IDs from #{type}_generate() found again by id, e.g. #{got.last}"
  end
end
exit($failed ? 1 : 0)
