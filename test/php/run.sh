#!/usr/bin/env bash
# Every type from PHP, as Debian 12 packages it: PDO (pdo_pgsql), Doctrine DBAL 3.6 and ORM 2.14, Laravel's
# illuminate/database and routing 8.83, with the repository's clients/php/ (round.php says what each round
# checks; orm.php the ORM's IDs, schema diff and DQL; laravel.php sticky connections, route keys, foreign
# keys and collections), and
# docs/clients.md's PHP snippets as the page shows them (docs_snippets.php). Each runs in a database of its
# own copied from one holding the extension (test/drivers/side_by_side.sh), side by side; all are dropped
# at the end. All in text (PHP's PostgreSQL drivers read no binary format): scripts/test.sh runs it on 15
# and 19. Run against a running cluster with the extension installed (PGHOST etc. set). Installs what is
# missing (Debian packages through install_missing). Prints `ok` / `FAIL` lines, layer by layer, each
# layer's time, and a FAIL line for a layer that stopped without saying why.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../scripts/lib.sh"
# shellcheck source=../drivers/side_by_side.sh
source "$here/../drivers/side_by_side.sh"
cd "$here" || exit 1

packages=(php-cli php-pgsql php-doctrine-dbal php-doctrine-orm php-illuminate-database php-illuminate-events php-illuminate-routing)
apt_out=$(install_missing "${packages[@]}" 2>&1) || { echo "FAIL installing ${packages[*]}"; printf '%s\n' "$apt_out" | tail -20; exit 1; }

side_by_side_start php
client pdo : php round.php pdo
client doctrine : php round.php doctrine
client laravel : php round.php laravel
client orm : php orm.php
client laravel-app : php laravel.php
client docs-snippets : php docs_snippets.php
side_by_side_report
