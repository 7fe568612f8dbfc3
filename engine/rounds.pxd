# The compiled build's declarations for railbook.engine.rounds (setup.py; README.md, "The compiled build"); the .py source is
# compiled unchanged. The round machinery as C functions taking a Context.
# A class declared here lists every field its instances have; a cpdef function keeps the signature written
# here (arguments by position, ``=*`` for a default).
cimport cython
from railbook.engine.context cimport Context
from railbook.engine.state cimport kind_of, sym_of
from railbook.engine.steps.base cimport StepBase, step_active, step_allowed, step_blocking, step_blocks, step_current_actions, step_current_entity
cimport railbook.engine.memo as _memo
cimport railbook.engine.market as market

cpdef object bump(Context g)
cpdef object tell(Context g, hook, action, entity=*)
cpdef object steps(Context g)
@cython.locals(named=dict)
cpdef object steps_named(Context g, name)
@cython.locals(answers=dict)
cpdef object _memo_now(Context g)
@cython.locals(answers=dict)
cpdef object active_step(Context g)
@cython.locals(s=StepBase)
cpdef object _first_blocking(Context g)
cpdef object active_entities(Context g)
@cython.locals(found=StepBase, s=StepBase)
cpdef object skip_steps(Context g)
cpdef object program(Context g, kind)
cpdef object round_type(Context g, kind)
cpdef object _plan(Context g, kind)
@cython.locals(data=dict)
cpdef object new_round(Context g, kind, round_num=*)
cpdef object start_first_round(Context g)
cpdef object next_entity_index(Context g)
cpdef object stock_setup(Context g)
cpdef object stock_finished(Context g)
cpdef object stock_start_entity(Context g)
cpdef object stock_next_entity(Context g)
cpdef object stock_after_process(Context g, action)
cpdef object operating_setup(Context g)
cpdef object any_to_act(Context g)
cpdef object start_operating(Context g)
cpdef object operating_next_entity(Context g)
cpdef object operating_finished(Context g)
cpdef object operating_after_process(Context g, action)
cpdef object recalculate_order(Context g)
cpdef object _priority_after_last(Context g)
cpdef object _stock_idle(Context g)
cpdef object round_finished(Context g)
@cython.locals(fields=dict)
cpdef object process(Context g, action)
@cython.locals(chosen=StepBase, s=StepBase)
cpdef object process_in_round(Context g, action, entity)
cpdef object transition(Context g)
cpdef object advance(Context g)
cpdef object _entries(spec, section)
cpdef object _repeat(Context g, entry)
cpdef object or_group_end(Context g)
cpdef object reorder_players(Context g)
