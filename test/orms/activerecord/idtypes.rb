# ActiveRecord (6.1) and the idtypes types: copy this file and require it before connecting (Rails: in
# config/initializers/). It registers the four types by name in the PostgreSQL adapter's type map, so
# their OIDs are recognised when a connection loads its types (no "unknown OID ...: failed to recognize
# type" warning; IDs are Strings), and as native types, so that db:schema:dump writes them into schema.rb
# (`create_table "posts", id: :timeid, default: -> { "timeid_generate()" }`) and db:schema:load reads them.
require "active_record"
require "active_record/connection_adapters/postgresql_adapter"

module IdtypesActiveRecord
  TYPES = %w[timeid tbsl uid11 scru160].freeze

  def native_database_types
    super.merge(TYPES.to_h { |t| [t.to_sym, { name: t }] })
  end

  private

  # before PostgreSQL's own, whose last step maps the OIDs of the type names registered
  def initialize_type_map(m = type_map)
    TYPES.each { |t| m.register_type t, ActiveRecord::ConnectionAdapters::PostgreSQL::OID::SpecializedString.new(t.to_sym) }
    super
  end
end

ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(IdtypesActiveRecord)
