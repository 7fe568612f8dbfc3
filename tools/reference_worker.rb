# frozen_string_literal: true

# usage: ruby tools/reference_worker.rb
# A development tool for tools/differential.py: keeps the 18xx.games engine loaded and runs the reference
# harness's digest.rb (unchanged) once for each request, so a differential run pays the engine's load time once
# rather than once a replay. Each request is one JSON line on stdin, {"record", "strict", "out"}: the digest
# lines go to the file "out", and one JSON line {"status", "stderr"} answers on stdout once it is written.
require 'json'
require 'stringio'

reference = ENV.fetch('REFERENCE_TOOLS', File.expand_path('../../shared/tools/reference', __dir__))
reference = '/work/shared/tools/reference' unless File.exist?(File.join(reference, 'digest.rb'))
digest = File.join(reference, 'digest.rb')
answers = $stdout.dup
answers.sync = true
$VERBOSE = nil # digest.rb defines its constants again on each load

$stdin.each_line do |line|
  request = JSON.parse(line)
  errors = StringIO.new
  status = 0
  File.open(request.fetch('out'), 'w') do |out|
    $stdout = out
    $stderr = errors
    ARGV.replace([request.fetch('record'), *(request['strict'] ? ['--strict'] : [])])
    begin
      load digest
    rescue SystemExit => e
      status = e.status
    rescue StandardError, ScriptError => e
      errors.puts("#{e.class}: #{e.message}")
      status = 2
    ensure
      $stdout = STDOUT
      $stderr = STDERR
    end
  end
  answers.puts(JSON.generate('status' => status, 'stderr' => errors.string[-300..] || errors.string))
end
