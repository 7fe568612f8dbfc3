"""The rule modules ("mechanics"), one per rule family; a title switches them on in its rulebook.

Each module declares a ``MECHANIC`` (:class:`railbook.engine.contract.Mechanic`): its typed parameters, the
steps and round types it contributes, the hooks and phase events it handles and its own state.  Modules never
import each other; :mod:`railbook.engine.registry` lists them all.
"""
