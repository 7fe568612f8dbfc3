# frozen_string_literal: true

# usage: ruby tools/site_options.rb TITLE
# Prints the optional rules (their syms) the 18xx.games engine knows for a title, as a JSON list: a record written
# for the site names only these (tools/differential.py leaves railbook's other options out of its soak records).
# A development tool; needs the reference engine unpacked by ../shared/tools/reference/setup.sh.
require 'json'
require 'set'
require 'logger'

engine_dir = ENV.fetch('REFERENCE_DIR', '/tmp/reference-18xx')
reference = ENV.fetch('REFERENCE_TOOLS', File.expand_path('../../shared/tools/reference', __dir__))
reference = '/work/shared/tools/reference' unless File.exist?(File.join(reference, 'require_all.rb'))
$LOAD_PATH.unshift(reference)
require File.join(engine_dir, 'lib/engine')
Engine::Logger.set_level(Logger::FATAL)

meta = Engine.meta_by_title(ARGV.fetch(0))
puts JSON.generate((meta::OPTIONAL_RULES || []).map { |o| o[:sym].to_s })
