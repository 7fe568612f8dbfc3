# frozen_string_literal: true

# Loads the 18xx.games engine for the tools beside this file (site_options.rb, site_tile_ids.rb,
# site_route_fresh.rb): the engine unpacked by ../shared/tools/reference/setup.sh ($REFERENCE_DIR) and the
# harness's stand-in for the gem ($REFERENCE_TOOLS). A development tool; never used by the tests.
require 'json'
require 'set'
require 'logger'

engine_dir = ENV.fetch('REFERENCE_DIR', '/tmp/reference-18xx')
reference = ENV.fetch('REFERENCE_TOOLS', File.expand_path('../../shared/tools/reference', __dir__))
reference = '/work/shared/tools/reference' unless File.exist?(File.join(reference, 'require_all.rb'))
$LOAD_PATH.unshift(reference)
require File.join(engine_dir, 'lib/engine')
Engine::Logger.set_level(Logger::FATAL)
