# frozen_string_literal: true

# usage: ruby tools/site_options.rb TITLE
# Prints the optional rules (their syms) the 18xx.games engine knows for a title, as a JSON list: a record written
# for the site names only these (tools/differential.py leaves railbook's other options out of its soak records).
# A development tool; needs the reference engine unpacked by ../shared/tools/reference/setup.sh.
require_relative 'reference_engine'

meta = Engine.meta_by_title(ARGV.fetch(0))
puts JSON.generate((meta::OPTIONAL_RULES || []).map { |o| o[:sym].to_s })
